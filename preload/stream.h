/* The image's ordered record buffer (stream.c). */
#ifndef GT_STREAM_H
#define GT_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "gittrace/format.h"

#include <sys/resource.h>

/*
 * malloc, calloc, free and the aligned family are timed on a random 1 in
 * GT_TIMED_ONE_IN calls (format.h, GT_CALL_SAMPLED): the others read the
 * clock once, not twice, and the trace loses the random low bits of
 * durations that no compressor can shrink. Sums of durations scaled up by
 * it stay unbiased. realloc and the map calls are always timed (realloc
 * only sampled too while its image has one thread: stream.c). The rate,
 * GT_TIMED_ONE_IN, is format.h's: written in IMAGE timed_one_in.
 *
 * A thread's first GT_TIMED_FIRST calls are all timed, each standing for
 * itself: they hold one-off costs (glibc sets up a thread's cache and
 * arena in its first malloc; the tracer reads a module's frame rules on
 * its first walk through it) that a sample would scale up sixteenfold. One
 * first malloc of 100 µs, drawn, made a 17 ms git command
 * "allocator-bound".
 */
#define GT_TIMED_FIRST 128

/* Whether a call is timed, and what a timed one stands for in sums of time. */
enum gt_timing {
	GT_UNTIMED = 0,
	GT_TIMED = 1,		 /* itself: realloc and the map calls, always timed */
	GT_TIMED_SAMPLE = 2,	 /* drawn at random: GT_TIMED_ONE_IN calls (GT_CALL_SAMPLED) */
	GT_TIMED_FIRST_CALL = 3, /* one of its thread's first calls: itself */
};

/*
 * Called by a recording hook before the real call: makes the calling
 * thread known to the image (so that a block of one thread's calls ends
 * before a second thread's call can race with it: format.h, time_shift)
 * and says whether to time this call of fn (enum gt_timing; 0 if not).
 */
int gt_stream_begin_call(enum gt_fn fn);

/*
 * The one time of an untimed call (format.h, CALL), taken before the real
 * free and after the others: a clock reading once the image has had a
 * second thread, whose calls may race; until then GT_TIME_UNREAD, and the
 * stream gives the call the image's last reading. So a single-threaded
 * program reads the clock on its timed calls only, about 1 in 16: the
 * clock costs ten times more on some machines than on others.
 */
#define GT_TIME_UNREAD UINT64_MAX
uint64_t gt_stream_untimed_ns(void);

/*
 * A CALL's arguments encoded by column (format.h's gt_encode_<fn>): the
 * bytes of column c run from from[c] to args.at[c]; the addresses, which
 * the stream codes, are in args.addrs. gt_call_bytes_init points the
 * columns at the caller's buffers (GT_CALL_ARGS_MAX bytes each; other
 * also holds any path).
 */
struct gt_call_bytes {
	const uint8_t *from[GT_COL_COUNT];
	struct gt_call_args args;
};

static inline void gt_call_bytes_init(struct gt_call_bytes *b, uint8_t *size, uint8_t *other)
{
	b->from[GT_COL_SIZE] = b->args.at[GT_COL_SIZE] = size;
	b->from[GT_COL_OTHER] = b->args.at[GT_COL_OTHER] = other;
	b->args.naddrs = 0;
	b->args.bytes = 1;
}

/*
 * A thread's usage right after a map call (format.h, USAGE): its rusage,
 * and the time from the real call's end until the tracer had read that and
 * the map's path (tracer_ns).
 */
struct gt_usage {
	struct rusage ru;
	uint64_t tracer_ns;
};

/*
 * Appends one CALL record for the calling thread: fn; if timed, its start
 * t0 and duration t1 - t0, else the one time t1 (format.h, CALL: the end
 * of a call that returns a block, the start of free; GT_TIME_UNREAD from
 * gt_stream_untimed_ns is replaced here); the stack (captured
 * here unless in counting mode or for free) and the arguments already
 * encoded; then, if usage is not NULL, a USAGE record with it. A call that cannot fit an
 * empty buffer is counted as dropped. Called with the guard held (through
 * gt_record_call, record.h). Returns 1 if the call's stack was new to the
 * image and written, else 0.
 */
int gt_stream_call(enum gt_fn fn, int timed, uint64_t t0, uint64_t t1,
		   const struct gt_call_bytes *args, const struct gt_usage *usage);

/*
 * Appends one record (tag + body) to the stream, flushing first if needed.
 * For image.c's IMAGE, MODULE and EXEC_FAILED records. Called with the
 * guard held.
 */
void gt_stream_record(enum gt_record_tag tag, const uint8_t *body, size_t len);

/* Writes what the buffer holds now as a block. Called with the guard held. */
void gt_stream_flush(void);

/*
 * Appends the image's END record and writes it, unless the image has
 * ended already (two threads' signal handlers may end it at once);
 * returns whether it did. From then on every later call is written at
 * once, so that calls made by exit handlers or other threads after the
 * end are not lost.
 */
int gt_stream_end(const uint8_t *body, size_t len);
/* After an exec that failed, whose hook ended the image: it goes on. */
void gt_stream_resume(void);

/*
 * Writes what the buffer holds, stops tracing with the warning why (a
 * string), and gives the buffer and the compressor back to the system
 * (about 11 MiB of address space at the default buffer size, which a limit
 * such as `ulimit -v` counts). For a hook whose real call failed with
 * ENOMEM (GT_OUT_OF_MEMORY), so that it can be made again, and before the
 * program enters a sandbox (hooks_sandbox.c). Every later call is dropped.
 * errno is kept. Called with the guard held.
 */
void gt_stream_give_back(const char *why);

#define GT_OUT_OF_MEMORY                                                                           \
	"out of memory: tracing stopped and its buffers given back to the program "                \
	"(a limit on memory, ulimit -v or -d, counts them); the trace ends here"

/* Sets up the stream for a new image (at start and in a forked child). */
int gt_stream_init(uint64_t image_id);
void gt_stream_reset_after_fork(uint64_t image_id);

/*
 * In a child forked by a signal handler while its thread was in a hook,
 * which goes on with the parent's stream until gt_stream_reset_after_fork:
 * the threads that held the stream's lock are gone, and the calls counted
 * busy from now on are the child's.
 */
void gt_stream_fork_deferred(void);

/*
 * Counts a call a signal handler made while its thread was in a hook's
 * own work (tracer.h, GT_GUARD_HOOK): the next record written is preceded
 * by a DROPPED record (reason busy) with the count. Async-signal-safe.
 */
void gt_stream_note_busy(void);

/* Calls recorded and dropped by this image so far. */
uint64_t gt_stream_calls(void);
uint64_t gt_stream_drops(void);
/* Estimated time spent in the tracer so far (sampled, see stream.c). */
uint64_t gt_stream_tracer_ns(void);
uint32_t gt_stream_threads(void);

/*
 * Whether the calling thread is inside the stream (it may hold its lock,
 * or have changed it halfway): for a signal handler that interrupted it.
 */
int gt_stream_held_here(void);

/*
 * From a handler of a signal about to end the process (hooks_signal.c):
 * if it interrupted this thread inside the stream, where the image cannot
 * end, keeps sig for take, which this thread calls with it as soon as it
 * lets the stream go (microseconds on), and returns 1; else returns 0. Not
 * in a vfork child (its parent's thread is inside), nor in the child of a
 * fork a handler made there (it goes on with its parent's stream, and dies
 * of the signal at once, its last calls lost). A second signal is kept
 * too, and the first taken.
 */
int gt_stream_hold_signal(int sig, void (*take)(int sig));

/* Whether the image's END has been written (gt_stream_end). */
int gt_stream_ended(void);

/*
 * Whether the calling process is the one the stream belongs to. Not so in
 * the child of a vfork (dash runs commands with vfork): it shares the
 * parent's memory until it execs or _exits, and must not end the parent's
 * image. One getpid(2): for exec and _exit, not for every call.
 */
int gt_stream_is_ours(void);

#endif /* GT_STREAM_H */
