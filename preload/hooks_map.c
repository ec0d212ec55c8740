/*
 * Hooks of the mapping calls. An mmap record carries the path behind the
 * descriptor at the time of the call: git closes a pack's descriptor right
 * after mapping it, so the analyzer could not find out later.
 *
 * Maps that glibc makes internally (large malloc blocks, the loader) do
 * not pass through here: an interposer cannot see them.
 */
#include "record.h"
#include "clock.h"
#include "interpose.h"
#include "lifecycle.h"
#include "log.h"
#include "pages.h"
#include "stream.h"
#include "unwind.h"

#include <limits.h>
#include <stdarg.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

/*
 * Writes the path of fd (without NUL) to out; returns its length, 0 if
 * none, cap if it may be longer.
 */
static size_t fd_path(int fd, char *out, size_t cap)
{
	char link[40] = "/proc/self/fd/";
	gt_utoa((uint64_t)fd, link + strlen(link));
	ssize_t n = readlink(link, out, cap);
	return n > 0 ? (size_t)n : 0;
}

/*
 * The thread's page faults and CPU time right after a map call, for the
 * cost of a window while it is mapped (format.h, USAGE). Only file maps
 * and unmaps: a few hundred nanoseconds beside a call that costs more,
 * but on some machines several µs, in the kernel time it reads: the
 * caller times it with its other system calls (usage_read).
 */
static const struct gt_usage *thread_usage(struct gt_usage *u)
{
	return getrusage(RUSAGE_THREAD, &u->ru) == 0 ? u : NULL;
}

/* The tracer's own work since the real call ended at t1 is done: its time. */
static void usage_read(struct gt_usage *u, uint64_t t1)
{
	uint64_t now = gt_now_ns();
	u->tracer_ns = now > t1 ? now - t1 : 0;
}

/* Whether a map call is of a file and succeeded: its window has a cost to follow. */
static int maps_file(int flags, int fd, void *r)
{
	return !(flags & MAP_ANONYMOUS) && fd >= 0 && r != MAP_FAILED;
}

/*
 * A map's path is read into a buffer of this size on the thread's stack,
 * and only a longer one into pages of the tracer's: a thread's stack may
 * be small (16 KiB with PTHREAD_STACK_MIN), and buffers of PATH_MAX here
 * took more than half of that.
 */
#define GT_SHORT_PATH 256

/* A call's bytes with room for a path of GT_SHORT_PATH or PATH_MAX bytes. */
struct short_path_call {
	char path[GT_SHORT_PATH];
	uint8_t other[GT_CALL_ARGS_MAX + GT_SHORT_PATH];
};
struct long_path_call {
	char path[PATH_MAX];
	uint8_t other[GT_CALL_ARGS_MAX + PATH_MAX];
};

/* Records a map call that ended at t1, and the thread's usage right after a file's. */
static void record_mmap(enum gt_fn fn, int timed, uint64_t t0, uint64_t t1, void *addr, size_t len,
			int prot, int flags, int fd, uint64_t offset, void *r)
{
	uint8_t size[GT_CALL_ARGS_MAX];
	struct short_path_call short_call;
	char *path = short_call.path;
	uint8_t *other = short_call.other;
	int saved_errno = errno;
	struct gt_usage u;
	const struct gt_usage *usage = maps_file(flags, fd, r) ? thread_usage(&u) : NULL;
	size_t plen = (flags & MAP_ANONYMOUS) || fd < 0 ? 0 : fd_path(fd, path, GT_SHORT_PATH);
	struct long_path_call *long_call = NULL;
	if (plen == GT_SHORT_PATH) {
		long_call = gt_pages(sizeof(*long_call));
		plen = long_call ? fd_path(fd, long_call->path, PATH_MAX) : 0;
		if (plen == PATH_MAX) /* longer: none, as readlink could not give it whole */
			plen = 0;
		if (long_call) {
			path = long_call->path;
			other = long_call->other;
		}
	}
	if (usage)
		usage_read(&u, t1);
	/* mmap64's arguments are mmap's (format.h). */
	struct gt_call_bytes args;
	gt_call_bytes_init(&args, size, other);
	gt_encode_mmap(&args.args, GT_U(addr), len, (uint64_t)prot, (uint64_t)(unsigned)flags, fd,
		       offset, GT_U(r), path, plen);
	gt_record_call(fn, timed, t0, t1, &args, usage);
	if (long_call)
		gt_pages_free(long_call, sizeof(*long_call));
	errno = saved_errno;
}

/* Before the real functions are known, go to the kernel directly. */
static void *raw_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t offset)
{
	long r = syscall(SYS_mmap, addr, len, prot, flags, fd, offset);
	if (r < 0 && r > -4096) {
		errno = (int)-r;
		return MAP_FAILED;
	}
	return (void *)r;
}

GT_EXPORT void *GT_HOOK_NAME(mmap)(void *addr, size_t len, int prot, int flags, int fd,
				   off_t offset)
{
	if (!gt_enter_call()) {
		if (!gt_real_mmap)
			gt_resolve_real();
		return gt_real_mmap ? gt_real_mmap(addr, len, prot, flags, fd, offset)
				    : raw_mmap(addr, len, prot, flags, fd, offset);
	}
	int timed = gt_stream_begin_call(GT_FN_MMAP); /* map calls: always timed */
	uint64_t t0 = gt_now_ns();
	gt_real_begin();
	void *r = gt_real_mmap(addr, len, prot, flags, fd, offset);
	gt_real_end();
	GT_AGAIN_IF_OUT_OF_MEMORY(r == MAP_FAILED && errno == ENOMEM && gt_may_fit(len) &&
					  !(flags & MAP_HUGETLB),
				  r = gt_real_mmap(addr, len, prot, flags, fd, offset));
	record_mmap(GT_FN_MMAP, timed, t0, gt_now_ns(), addr, len, prot, flags, fd,
		    (uint64_t)offset, r);
	gt_leave();
	return r;
}

GT_EXPORT void *GT_HOOK_NAME(mmap64)(void *addr, size_t len, int prot, int flags, int fd,
				     off64_t offset)
{
	if (!gt_enter_call()) {
		if (!gt_real_mmap64)
			gt_resolve_real();
		return gt_real_mmap64 ? gt_real_mmap64(addr, len, prot, flags, fd, offset)
				      : raw_mmap(addr, len, prot, flags, fd, (off_t)offset);
	}
	int timed = gt_stream_begin_call(GT_FN_MMAP64); /* map calls: always timed */
	uint64_t t0 = gt_now_ns();
	gt_real_begin();
	void *r = gt_real_mmap64(addr, len, prot, flags, fd, offset);
	gt_real_end();
	GT_AGAIN_IF_OUT_OF_MEMORY(r == MAP_FAILED && errno == ENOMEM && gt_may_fit(len) &&
					  !(flags & MAP_HUGETLB),
				  r = gt_real_mmap64(addr, len, prot, flags, fd, offset));
	record_mmap(GT_FN_MMAP64, timed, t0, gt_now_ns(), addr, len, prot, flags, fd,
		    (uint64_t)offset, r);
	gt_leave();
	return r;
}

GT_EXPORT int GT_HOOK_NAME(munmap)(void *addr, size_t len)
{
	if (gt_called_by_unwinder(__builtin_return_address(0)) || !gt_enter_call()) {
		if (!gt_real_munmap)
			gt_resolve_real();
		return gt_real_munmap ? gt_real_munmap(addr, len)
				      : (int)syscall(SYS_munmap, addr, len);
	}
	int timed = gt_stream_begin_call(GT_FN_MUNMAP); /* map calls: always timed */
	uint64_t t0 = gt_now_ns();
	gt_real_begin();
	int r = gt_real_munmap(addr, len);
	gt_real_end();
	uint64_t t1 = gt_now_ns();
	struct gt_usage u;
	int saved_errno = errno;
	const struct gt_usage *usage = r == 0 ? thread_usage(&u) : NULL;
	if (usage)
		usage_read(&u, t1);
	uint8_t size[GT_CALL_ARGS_MAX], other[GT_CALL_ARGS_MAX];
	struct gt_call_bytes args;
	gt_call_bytes_init(&args, size, other);
	gt_encode_munmap(&args.args, GT_U(addr), len, r);
	gt_record_call(GT_FN_MUNMAP, timed, t0, t1, &args, usage);
	errno = saved_errno;
	gt_leave();
	return r;
}

#ifndef MREMAP_DONTUNMAP
#define MREMAP_DONTUNMAP 4 /* Linux 5.7 */
#endif

/*
 * The kernel reads new_address with MREMAP_FIXED (where to go) and with
 * MREMAP_DONTUNMAP (a hint, which it checks), as glibc 2.41 does for its
 * variadic mremap; older glibc passes the register on whatever the flags.
 */
GT_EXPORT void *GT_HOOK_NAME(mremap)(void *old_addr, size_t old_len, size_t new_len, int flags, ...)
{
	void *new_addr = NULL;
	if (flags & (MREMAP_FIXED | MREMAP_DONTUNMAP)) {
		va_list ap;
		va_start(ap, flags);
		new_addr = va_arg(ap, void *);
		va_end(ap);
	}
	if (!gt_enter_call()) {
		if (!gt_real_mremap)
			gt_resolve_real();
		return gt_real_mremap(old_addr, old_len, new_len, flags, new_addr);
	}
	int timed = gt_stream_begin_call(GT_FN_MREMAP); /* map calls: always timed */
	uint64_t t0 = gt_now_ns();
	gt_real_begin();
	void *r = gt_real_mremap(old_addr, old_len, new_len, flags, new_addr);
	gt_real_end();
	/* Without MREMAP_MAYMOVE, ENOMEM says the mapping cannot grow in place. */
	GT_AGAIN_IF_OUT_OF_MEMORY(r == MAP_FAILED && errno == ENOMEM && (flags & MREMAP_MAYMOVE) &&
					  gt_may_fit(new_len),
				  r = gt_real_mremap(old_addr, old_len, new_len, flags, new_addr));
	uint64_t t1 = gt_now_ns();
	uint8_t size[GT_CALL_ARGS_MAX], other[GT_CALL_ARGS_MAX];
	int saved_errno = errno;
	struct gt_call_bytes args;
	gt_call_bytes_init(&args, size, other);
	gt_encode_mremap(&args.args, GT_U(old_addr), old_len, new_len, (uint64_t)(unsigned)flags,
			 GT_U(new_addr), GT_U(r));
	gt_record_call(GT_FN_MREMAP, timed, t0, t1, &args, NULL);
	errno = saved_errno;
	gt_leave();
	return r;
}
