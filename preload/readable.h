/*
 * Whether memory can be read, asked of the kernel rather than found out
 * by a fault (readable.c): a stack the walk did not start on, an
 * environment the program hands to exec.
 */
#ifndef GT_READABLE_H
#define GT_READABLE_H

#include <stdint.h>

/* The page the probes count in: the smallest, so that none is skipped. */
#define GT_READABLE_PAGE      4096u
#define GT_READABLE_PAGES_MAX 16

/*
 * Of the n pages (n <= GT_READABLE_PAGES_MAX) from page on, how many in a
 * row can be read: one process_vm_readv on the process itself, a byte of
 * each, which stops at the first page where a load would fault. -1 if
 * the kernel cannot tell (a kernel or sandbox that refuses the call).
 * errno is kept.
 */
long gt_readable_pages(uintptr_t page, int n);

/*
 * 1 if the NULL-terminated array v (NULL: an empty one) and every string
 * it holds can be read to their ends; 0 if a load would fault there.
 */
int gt_readable_strings(char *const *v);

#endif /* GT_READABLE_H */
