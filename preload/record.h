/*
 * The shape every recording hook shares: read the clock around the real
 * call as far as the call is timed (stream.h, GT_TIMED_ONE_IN), then
 * append a CALL with its arguments (encoded as format.h's GT_ARGS tables
 * say), keeping errno as the real call left it.
 */
#ifndef GT_RECORD_H
#define GT_RECORD_H

#include "image.h"
#include "stack_walk.h"
#include "stream.h"
#include "gittrace/format.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/resource.h>
#ifdef __linux__
#include <fcntl.h>
#include <sys/sysinfo.h>
#include <unistd.h>
#endif

/*
 * Appends a CALL (stream.h, gt_stream_call). A new stack may pass through
 * a module glibc loaded without dlopen: then the MODULE records are
 * written again (image.h), outside the stream lock.
 */
static inline void gt_record_call(enum gt_fn fn, int timed, uint64_t t0, uint64_t t1,
				  const struct gt_call_bytes *args, const struct rusage *usage)
{
	if (gt_stream_call(fn, timed, t0, t1, args, usage))
		gt_image_modules_if_loaded();
}

/*
 * Whether a request of this many bytes that failed with ENOMEM might have
 * been met without the tracer's memory: glibc and mmap refuse more than
 * PTRDIFF_MAX whatever is free, and nothing larger than the limit on
 * address space fits under it. Only on a failure: one getrlimit.
 */
static inline int gt_may_fit(uint64_t bytes)
{
	int saved_errno = errno;
	struct rlimit rl;
	int fits =
		bytes <= (uint64_t)PTRDIFF_MAX &&
		(getrlimit(RLIMIT_AS, &rl) || rl.rlim_cur == RLIM_INFINITY || bytes < rl.rlim_cur);
	errno = saved_errno;
	return fits;
}

/*
 * gt_may_fit for the malloc family, whose blocks are private, writable
 * memory the kernel counts: under its default overcommit heuristic
 * (vm.overcommit_memory 0) it refuses one larger than its memory and swap
 * together, whatever the tracer holds. A program that probes with a huge
 * request stopped tracing. Maps of other kinds (MAP_NORESERVE, PROT_NONE,
 * shared) and other modes are not refused so: gt_may_fit alone.
 */
static inline int gt_heap_may_fit(uint64_t bytes)
{
	if (!gt_may_fit(bytes))
		return 0;
#ifdef __linux__
	int saved_errno = errno, fits = 1;
	struct sysinfo si;
	char mode = 0;
	int fd = open("/proc/sys/vm/overcommit_memory", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		if (read(fd, &mode, 1) != 1)
			mode = 0;
		close(fd);
	}
	if (mode == '0' && sysinfo(&si) == 0 && si.mem_unit)
		fits = bytes / si.mem_unit <= (uint64_t)si.totalram + si.totalswap;
	errno = saved_errno;
	return fits;
#else
	return 1;
#endif
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
