/*
 * A preloaded library that sends its process SIGTERM from inside the
 * tracer's own work, where a timer's signal lands only now and then
 * (tests/capture/killed_by_signal.sh). Preloaded after libgittrace.so, its
 * functions are the ones libgittrace calls. SIGNAL_INSIDE says where:
 *   stream  in libgittrace's 1000th pthread_mutex_lock: in a process of two
 *           threads, the stream's lock, taken inside the stream for each
 *           call's record
 *   stream-then-usr1  there too, then SIGUSR1, whose handler the program
 *           may fork in
 *   rules   in libgittrace's open of /proc/self/exe, where it reads the
 *           main program's frame rules with every signal held back: the
 *           signal comes as that reading ends
 *   start   in libgittrace's open of /proc/self/cmdline, as tracing starts
 *           (the image's IMAGE record), before its signal handlers are set
 *   hook-start  there too, where tracing starts in a malloc hook that this
 *           library's constructor calls, before libgittrace's constructor
 * The signals go to the calling thread. Each function passes the call on
 * to the next definition, libc's.
 */
#define _GNU_SOURCE /* RTLD_NEXT, dladdr */
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

static int inside(const char *where)
{
	const char *asked = getenv("SIGNAL_INSIDE");
	return asked && !strcmp(asked, where);
}

/* Whether the caller at address ret is libgittrace. */
static int from_tracer(void *ret)
{
	Dl_info info;
	return dladdr(ret, &info) && info.dli_fname && strstr(info.dli_fname, "libgittrace");
}

int pthread_mutex_lock(pthread_mutex_t *m)
{
	static int (*next)(pthread_mutex_t *);
	static int locks;
	if (!next)
		next = (int (*)(pthread_mutex_t *))dlsym(RTLD_NEXT, "pthread_mutex_lock");
	int usr1 = inside("stream-then-usr1");
	if ((inside("stream") || usr1) && from_tracer(__builtin_return_address(0)) &&
	    ++locks == 1000) {
		raise(SIGTERM);
		if (usr1)
			raise(SIGUSR1);
	}
	return next(m);
}

static int open_next(const char *name, const char *path, int flags, va_list ap)
{
	int (*next)(const char *, int, ...) =
		(int (*)(const char *, int, ...))dlsym(RTLD_NEXT, name);
	mode_t mode = flags & (O_CREAT | O_TMPFILE) ? (mode_t)va_arg(ap, int) : 0;
	if ((inside("rules") && !strcmp(path, "/proc/self/exe")) ||
	    ((inside("start") || inside("hook-start")) && !strcmp(path, "/proc/self/cmdline")))
		raise(SIGTERM);
	return next(path, flags, mode);
}

int open(const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	int fd = open_next("open", path, flags, ap);
	va_end(ap);
	return fd;
}

int open64(const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	int fd = open_next("open64", path, flags, ap);
	va_end(ap);
	return fd;
}

/* Preloaded after libgittrace.so, this constructor runs before its. */
__attribute__((constructor)) static void start_in_hook(void)
{
	static void *volatile kept; /* so that the allocation is made */
	if (inside("hook-start")) {
		kept = malloc(1);
		free(kept);
	}
}
