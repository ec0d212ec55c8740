/*
 * A stand-in "allocator" for the replay tests where mimalloc and jemalloc
 * are not installed: a preload that takes over the malloc family and
 * passes it to glibc's own entry points. It proves the replay runs under a
 * library that replaces malloc, without depending on a package. It leaves
 * out reallocarray and pvalloc on purpose, as jemalloc does, so that the
 * replayer's stand-ins for missing functions are tested everywhere.
 * (posix_memalign returns ENOMEM's value: <errno.h> is not needed here.)
 */
#include <stddef.h>

void *__libc_malloc(size_t size);
void *__libc_calloc(size_t nmemb, size_t size);
void *__libc_realloc(void *p, size_t size);
void __libc_free(void *p);

void *malloc(size_t size)
{
	return __libc_malloc(size);
}

void *calloc(size_t nmemb, size_t size)
{
	return __libc_calloc(nmemb, size);
}

void *realloc(void *p, size_t size)
{
	return __libc_realloc(p, size);
}

void free(void *p)
{
	__libc_free(p);
}

void *__libc_memalign(size_t align, size_t size);
void *__libc_valloc(size_t size);
void *__libc_pvalloc(size_t size);

int posix_memalign(void **out, size_t align, size_t size)
{
	void *p = __libc_memalign(align, size);
	if (!p)
		return 12; /* ENOMEM */
	*out = p;
	return 0;
}

void *aligned_alloc(size_t align, size_t size)
{
	return __libc_memalign(align, size);
}

void *memalign(size_t align, size_t size)
{
	return __libc_memalign(align, size);
}

void *valloc(size_t size)
{
	return __libc_valloc(size);
}
