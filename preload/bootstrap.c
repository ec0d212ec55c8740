/*
 * Memory the tracer can use before, and instead of, the hooked allocator.
 *
 * The arena serves allocations made before the real allocator is
 * known. dlsym(RTLD_NEXT, ...) may call calloc/malloc (for its error
 * buffer) while we are resolving calloc itself; those calls land here.
 * Arena memory is never handed to the real free or realloc: the hooks ask
 * gt_arena_owns() first.
 */
#include "internal.h"

#include <stdalign.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

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

/*
 * The tracer's own memory comes from the raw system call, so it is never
 * recorded and works before the real functions are resolved.
 */
void *gt_pages(size_t size)
{
	long r = syscall(SYS_mmap, NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			 -1, 0);
	return (r < 0 && r > -4096) ? NULL : (void *)r;
}

void gt_pages_free(void *p, size_t size)
{
	if (p)
		syscall(SYS_munmap, p, size);
}

void *gt_pages_grow(void *p, size_t old_size, size_t new_size)
{
	long r = syscall(SYS_mremap, p, old_size, new_size, MREMAP_MAYMOVE);
	return (r < 0 && r > -4096) ? NULL : (void *)r;
}
