/*
 * A preloaded library whose mremap raises SIGUSR1, then passes the call on
 * to the next mremap, libc's. Preloaded after libgittrace.so, it runs as
 * libgittrace's real mremap: the signal's handler runs inside the
 * tracer's hook, every time, where a timer's lands only now and then
 * (tests/capture/exit_in_handler.sh). The tracer takes libc to serve the
 * allocations still: mremap is not among the functions it checks.
 */
#define _GNU_SOURCE /* RTLD_NEXT, mremap */
#include <dlfcn.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <sys/mman.h>

void *mremap(void *old_addr, size_t old_len, size_t new_len, int flags, ...)
{
	static void *(*next)(void *, size_t, size_t, int, ...);
	if (!next)
		next = (void *(*)(void *, size_t, size_t, int, ...))dlsym(RTLD_NEXT, "mremap");
	va_list ap;
	va_start(ap, flags);
	void *new_addr = va_arg(ap, void *);
	va_end(ap);
	raise(SIGUSR1);
	return next(old_addr, old_len, new_len, flags, new_addr);
}
