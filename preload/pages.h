/*
 * Memory for the tracer itself, straight from the kernel (never through
 * the hooked allocator; pages.c). gt_pages returns zeroed memory or NULL.
 */
#ifndef GT_PAGES_H
#define GT_PAGES_H

#include <stddef.h>

void *gt_pages(size_t size);
/*
 * The same, its pages faulted in at once: for a hash table, which a
 * short process touches all over within its first calls, one fault each
 * (a traced `git rev-parse` took 120 fewer page faults).
 */
void *gt_pages_populated(size_t size);
void gt_pages_free(void *p, size_t size);
/* Grows a gt_pages block, moving it if needed; NULL on failure (the old
 * block stays valid). */
void *gt_pages_grow(void *p, size_t old_size, size_t new_size);

#endif /* GT_PAGES_H */
