/*
 * Early allocations while dlsym runs (bootstrap.c): the hooks of the
 * malloc family serve them from a static arena. Never passed to the real
 * free.
 */
#ifndef GT_BOOTSTRAP_H
#define GT_BOOTSTRAP_H

#include <stddef.h>

void *gt_arena_alloc(size_t size, size_t align);
int gt_arena_owns(const void *ptr);
size_t gt_arena_size(const void *ptr);

#endif /* GT_BOOTSTRAP_H */
