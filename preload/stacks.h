/* The image's table of distinct stacks (stacks.c). */
#ifndef GT_STACKS_H
#define GT_STACKS_H

#include <stdint.h>

/*
 * Returns the id of the stack (from 1), adding it if new (*is_new set to
 * 1, else 0); 0 if it could not be stored (out of memory). Called with the
 * stream lock held.
 */
uint32_t gt_stacks_intern(const uintptr_t *ips, int depth, int *is_new);
/* Forgets every stack: ids restart at 1 (a new image). */
void gt_stacks_reset(void);

#endif /* GT_STACKS_H */
