/*
 * A preloaded library that wraps realloc alone and passes each call on to
 * the next one, libgittrace's: malloc stays libgittrace's and tracing
 * stays on, so reallocarray must be recorded as reallocarray (it was
 * recorded as realloc once reallocarray called this realloc). The capture
 * test allocator_in_front.sh preloads it before libgittrace.so.
 */
#define _GNU_SOURCE /* RTLD_NEXT */
#include <dlfcn.h>
#include <stddef.h>

void *realloc(void *ptr, size_t size)
{
	static void *(*next)(void *, size_t);
	if (!next)
		next = (void *(*)(void *, size_t))dlsym(RTLD_NEXT, "realloc");
	return next(ptr, size);
}
