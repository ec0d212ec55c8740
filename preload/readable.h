/*
 * Whether memory a program handed to a hook can be read, asked of the
 * kernel rather than found out by a fault (readable.c).
 */
#ifndef GT_READABLE_H
#define GT_READABLE_H

/*
 * 1 if the NULL-terminated array v (NULL: an empty one) and every string
 * it holds can be read to their ends; 0 if a load would fault there.
 */
int gt_readable_strings(char *const *v);

#endif /* GT_READABLE_H */
