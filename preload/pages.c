/*
 * The tracer's own memory, from the raw system call: never through the
 * hooked allocator, so it is never recorded and works before the real
 * functions are resolved.
 */
#include "pages.h"

#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

/*
 * ThreadSanitizer cannot see raw system calls: to it, pages one thread
 * unmapped and another got back at the same address still hold the first
 * thread's accesses, a race. Where TSan runs (behaviour.tsan, or a program
 * built with it), unmapping releases and mapping acquires one sync object,
 * as the kernel orders them; elsewhere these are null.
 */
extern void __tsan_acquire(void *addr) __attribute__((weak));
extern void __tsan_release(void *addr) __attribute__((weak));
static char kernel_handoff;

static void *mapped(long r)
{
	if (r < 0 && r > -4096)
		return NULL;
	if (__tsan_acquire)
		__tsan_acquire(&kernel_handoff);
	return (void *)r;
}

static void unmapping(void)
{
	if (__tsan_release)
		__tsan_release(&kernel_handoff);
}

static void *map_pages(size_t size, int flags)
{
	return mapped(syscall(SYS_mmap, NULL, size, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS | flags, -1, 0));
}

void *gt_pages(size_t size)
{
	return map_pages(size, 0);
}

void *gt_pages_populated(size_t size)
{
	return map_pages(size, MAP_POPULATE);
}

void gt_pages_free(void *p, size_t size)
{
	if (!p)
		return;
	unmapping();
	syscall(SYS_munmap, p, size);
}

void *gt_pages_grow(void *p, size_t old_size, size_t new_size)
{
	unmapping();
	return mapped(syscall(SYS_mremap, p, old_size, new_size, MREMAP_MAYMOVE));
}
