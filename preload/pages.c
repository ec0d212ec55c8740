/*
 * The tracer's own memory, from the raw system call: never through the
 * hooked allocator, so it is never recorded and works before the real
 * functions are resolved.
 */
#include "pages.h"

#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

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
