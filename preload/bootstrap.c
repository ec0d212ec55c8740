/*
 * The arena: memory for allocations made before the real allocator is
 * known. dlsym(RTLD_NEXT, ...) may call calloc/malloc (for its error
 * buffer) while we are resolving calloc itself; those calls land here.
 * Arena memory is never handed to the real free or realloc: the hooks ask
 * gt_arena_owns() first.
 */
#include "bootstrap.h"

#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>

/* dlsym needs a few hundred bytes; keep generous room for odd libcs. */
#define GT_ARENA_SIZE (256 * 1024)

/* Each block is preceded by its size, so realloc can copy it out. */
struct arena_block {
	size_t size;
	alignas(max_align_t) unsigned char data[];
};

static alignas(4096) unsigned char arena[GT_ARENA_SIZE];
static size_t arena_used; /* accessed atomically */

void *gt_arena_alloc(size_t size, size_t align)
{
	if (align < alignof(max_align_t))
		align = alignof(max_align_t);
	if (size > GT_ARENA_SIZE || align > 4096)
		return NULL;
	size_t need = sizeof(struct arena_block) + size + align;
	size_t start = __atomic_fetch_add(&arena_used, need, __ATOMIC_RELAXED);
	if (start + need > GT_ARENA_SIZE)
		return NULL;
	/* Place the data at the first suitably aligned address after the size. */
	uintptr_t data = (uintptr_t)(arena + start + sizeof(struct arena_block));
	data = (data + align - 1) & ~(uintptr_t)(align - 1);
	struct arena_block *b = (struct arena_block *)(data - sizeof(struct arena_block));
	b->size = size;
	return (void *)data; /* static storage: already zero, as calloc needs */
}

int gt_arena_owns(const void *ptr)
{
	const unsigned char *p = ptr;
	return p >= arena && p < arena + GT_ARENA_SIZE;
}

size_t gt_arena_size(const void *ptr)
{
	const struct arena_block *b =
		(const struct arena_block *)((const unsigned char *)ptr - sizeof(*b));
	return b->size;
}
