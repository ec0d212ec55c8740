/*
 * The shape every recording hook shares: read the clock around the real
 * call as far as the call is timed (stream.h, GT_TIMED_ONE_IN), then
 * append a CALL with its arguments (encoded as format.h's GT_ARGS tables
 * say), keeping errno as the real call left it.
 */
#ifndef GT_RECORD_H
#define GT_RECORD_H

#include "image.h"
#include "no_cancel.h"
#include "stack_walk.h"
#include "stream.h"
#include "gittrace/format.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/resource.h>
#ifdef __linux__
#include <fcntl.h>
#include <unistd.h>
#endif

/*
 * Appends a CALL (stream.h, gt_stream_call). A new stack may pass through
 * a module glibc loaded without dlopen: then the MODULE records are
 * written again (image.h), outside the stream lock.
 */
static inline void gt_record_call(enum gt_fn fn, int timed, uint64_t t0, uint64_t t1,
				  const struct gt_call_bytes *args, const struct gt_usage *usage)
{
	if (gt_stream_call(fn, timed, t0, t1, args, usage))
		gt_image_modules_if_loaded();
}

#ifdef __linux__
/* A small /proc file into buf (size bytes), NUL-ended: "" if unreadable. */
static inline void gt_proc_read(const char *path, char *buf, size_t size)
{
	ssize_t n = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, buf, size - 1);
		close(fd);
	}
	buf[n > 0 ? n : 0] = '\0';
}

/*
 * Linux's count of the process's maps is near vm.max_map_count: the maps
 * the tracer holds (its buffers, the module files it reads) may be what a
 * failed map lacked. Only on a failure, and apart (cold): its buffer would
 * take 4 KiB of every hook's stack.
 */
#define GT_TRACER_MAPS_MAX 1024 /* far more than the tracer ever holds */
static __attribute__((noinline, cold)) int gt_near_map_count_limit(void)
{
	char buf[4096];
	ssize_t n;
	long maps = 0;
	gt_proc_read("/proc/sys/vm/max_map_count", buf, sizeof(buf));
	long limit = strtol(buf, NULL, 10);
	int fd = limit > 0 ? open("/proc/self/maps", O_RDONLY | O_CLOEXEC) : -1;
	if (fd < 0)
		return 1; /* unknown: the tracer may be the cause */
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		for (ssize_t i = 0; i < n; i++)
			maps += buf[i] == '\n';
	close(fd);
	return maps + GT_TRACER_MAPS_MAX >= limit;
}
#endif

/* The soft limit on a resource; RLIM_INFINITY if none or unknown. */
static inline rlim_t gt_limit(int resource)
{
	struct rlimit rl;
	return getrlimit(resource, &rl) == 0 ? rl.rlim_cur : RLIM_INFINITY;
}

/*
 * Whether a request of this many bytes that failed with ENOMEM might have
 * been met without the tracer's memory. Never one of more than
 * PTRDIFF_MAX, which glibc and mmap refuse whatever is free. Under a limit
 * on address space (ulimit -v) or on data (ulimit -d: private writable maps
 * and the heap), the tracer's maps count: one smaller than the limit may
 * have failed for them. Otherwise Linux refuses a request for want of
 * memory only under strict accounting (vm.overcommit_memory 2), where the
 * tracer's memory counts too, and at vm.max_map_count maps. Else ENOMEM is
 * no matter of the tracer's few MiB: under the default heuristic (0) a
 * single request larger than memory and swap together, and at any setting
 * a reservation larger than the address space has room for, or a fixed
 * range outside it, as runtimes probe with. Stopping there stopped tracing
 * for good, with a warning, where the program went on as usual. The /proc
 * reads are no cancellation points here, as none of the tracer's are.
 */
static inline int gt_may_fit(uint64_t bytes)
{
	if (bytes > (uint64_t)PTRDIFF_MAX)
		return 0;
	int saved_errno = errno, fits = 1;
	rlim_t as = gt_limit(RLIMIT_AS), data = gt_limit(RLIMIT_DATA);
	if ((as != RLIM_INFINITY && bytes < as) || (data != RLIM_INFINITY && bytes < data))
		fits = 1;
	else if (as != RLIM_INFINITY)
		fits = 0; /* no smaller than the limit on address space */
#ifdef __linux__
	else {
		char mode[2];
		int cancel = gt_cancel_off();
		gt_proc_read("/proc/sys/vm/overcommit_memory", mode, sizeof(mode));
		fits = mode[0] == '2' || gt_near_map_count_limit();
		gt_cancel_restore(cancel);
	}
#endif
	errno = saved_errno;
	return fits;
}

/*
 * After the real call: if it failed for want of memory (failed), tracing
 * stops, the stream gives its memory back (gt_stream_give_back), the stack
 * walk the module files it mapped (gt_stack_walk_give_back), and the call
 * is made again (again): under a limit on address space, what the
 * tracer held may be what the call lacked, and the program must fare as
 * it would untraced. The trace ends before the call (the stream drops it).
 */
#define GT_AGAIN_IF_OUT_OF_MEMORY(failed, again)                                                   \
	do {                                                                                       \
		if (failed) {                                                                      \
			gt_stream_give_back(GT_OUT_OF_MEMORY);                                     \
			gt_stack_walk_give_back();                                                 \
			gt_real_begin();                                                           \
			again;                                                                     \
			gt_real_end();                                                             \
		}                                                                                  \
	} while (0)

/*
 * Appends the CALL of function fn (its name in GT_FNS: malloc, free, ...)
 * with its arguments in the order GT_ARGS_<FN> (format.h) lists them: if
 * timed, it started at t0 and ended at t1; if not, t1 is its one time (the
 * end of a call that returns a block, the start of free). Guard held;
 * errno kept.
 */
#define GT_RECORD(fn, timed, t0, t1, ...)                                                          \
	do {                                                                                       \
		uint64_t gt_t1_ = (t1);                                                            \
		int gt_errno_ = errno;                                                             \
		uint8_t gt_size_[GT_CALL_ARGS_MAX], gt_other_[GT_CALL_ARGS_MAX];                   \
		struct gt_call_bytes gt_args_;                                                     \
		gt_call_bytes_init(&gt_args_, gt_size_, gt_other_);                                \
		gt_encode_##fn(&gt_args_.args, __VA_ARGS__);                                       \
		gt_record_call((enum gt_fn)gt_fn_of_##fn, (timed), (t0), gt_t1_, &gt_args_, NULL); \
		errno = gt_errno_;                                                                 \
	} while (0)

/*
 * The clock readings around a call that returns a block: before it only if
 * the call is timed; after it, GT_RECORD's t1, its end or its one time.
 */
#define GT_TIMED_BEGIN(timed) ((timed) ? gt_now_ns() : 0)
#define GT_TIMED_END(timed)   ((timed) ? gt_now_ns() : gt_stream_untimed_ns())

/* enum gt_fn by function name, for GT_RECORD. */
enum {
#define GT_FN_OF(NAME, value, name) gt_fn_of_##name = GT_FN_##NAME,
	GT_FNS(GT_FN_OF)
#undef GT_FN_OF
};

#define GT_U(x) ((uint64_t)(uintptr_t)(x))

#endif /* GT_RECORD_H */
