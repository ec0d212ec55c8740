/*
 * Declarations shared by the files of libgittrace.so. Nothing here is
 * exported: the library is built with -fvisibility=hidden and exports only
 * the libc names it hooks.
 *
 * The pieces, in the order a call meets them:
 *   hooks_*.c   the interposed functions: guard, time the real call, record
 *               (hooks_fd.c: libunwind's pipe, kept off the program's fds)
 *   tracer.c    whether this call is recorded (state, recursion guard, start)
 *   unwind.c    the caller's stack (libunwind)
 *   stream.c    the image's ordered record buffer and its stack table
 *   writer.c    compresses a full buffer into a block and appends it
 *   image.c     identity of the process image: IMAGE, MODULE, END records
 *   session.c   which file the run writes to, opened safely
 *   exec_env.c  what a program run by a traced process inherits to stay traced
 *   settings.c  GITTRACE_* environment settings
 *   interpose_*.c  the real functions
 *   bootstrap.c the arena that serves dlsym's early calls
 *   pages.c     the tracer's own memory, from the kernel
 *   log.c       allocation-free warnings on stderr
 */
#ifndef GT_PRELOAD_INTERNAL_H
#define GT_PRELOAD_INTERNAL_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <spawn.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "gittrace/format.h"
#include "interpose.h"

#define GT_TLS __attribute__((tls_model("initial-exec"))) __thread

/* ---- interpose_{linux,darwin}.c, bootstrap.c, pages.c ---------------------------- */

/* Pointers to the real functions, NULL until gt_resolve_real() ran (interpose_*.c). */
#define GT_HOOK(ret, name, params) extern ret(*gt_real_##name) params;
#include "hooks.def"

/*
 * Looks up every real function (interpose_*.c). Safe to call from any hook,
 * any number of times: the first call resolves; calls made while dlsym runs
 * (it may allocate) see NULL pointers and are served by the arena below
 * (bootstrap.c).
 */
void gt_resolve_real(void);

/* Early allocations while dlsym runs. Never passed to the real free. */
void *gt_arena_alloc(size_t size, size_t align);
int gt_arena_owns(const void *ptr);
size_t gt_arena_size(const void *ptr);

/*
 * Memory for the tracer itself, straight from the kernel (never through
 * the hooked allocator; pages.c). gt_pages returns zeroed memory or NULL.
 */
void *gt_pages(size_t size);
void gt_pages_free(void *p, size_t size);
/* Grows a gt_pages block, moving it if needed; NULL on failure (the old
 * block stays valid). */
void *gt_pages_grow(void *p, size_t old_size, size_t new_size);

/* ---- log.c ---------------------------------------------------------- */

/*
 * Writes "gittrace: " and the given strings (NULL-terminated list) and a
 * newline to stderr with one write(2). Allocation-free, async-signal-safe.
 */
void gt_warn(const char *first, ...) __attribute__((sentinel));

/* Formats v in decimal into buf (at least 21 bytes); returns buf. */
char *gt_utoa(uint64_t v, char *buf);

/* ---- settings.c ----------------------------------------------------- */

struct gt_settings {
	const char *output;	    /* GITTRACE_OUTPUT, or NULL */
	unsigned stack_depth;	    /* 0: counting mode */
	size_t buffer_size;	    /* bytes of records per block */
	int zstd_level;		    /* compression level */
	uint64_t flush_interval_ns; /* flush a block at least this often */
	unsigned file_mode;	    /* mode of a new trace file */
};

/* The settings of this process image, loaded when tracing starts (tracer.c). */
extern struct gt_settings gt_settings;

/* Bounds the stack space a hook uses (the addresses and their encoding). */
#define GT_MAX_STACK_DEPTH 128

/*
 * Reads the GITTRACE_* settings with secure_getenv (ignored in setuid
 * programs). An invalid value gets the default and, if warn is set, one
 * warning line.
 */
void gt_settings_load(struct gt_settings *s, int warn);

/* ---- clock.c ---------------------------------------------------------- */

static inline uint64_t gt_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The cost of one gt_now_ns(), measured at image start (image.c). */
extern uint64_t gt_clock_overhead_ns;
/* Measures it (63 pairs of readings) and stores it in gt_clock_overhead_ns. */
void gt_clock_measure_overhead(void);

/* ---- tracer.c ------------------------------------------------------- */

/* Set while this thread runs tracer code: nested calls pass through. */
extern GT_TLS int gt_in_tracer;

enum gt_state { GT_STATE_NEW, GT_STATE_STARTING, GT_STATE_ON, GT_STATE_OFF };
/* enum gt_state, accessed atomically; written by tracer.c alone. */
extern int gt_state;

/*
 * Claims the start-up of tracing: returns 1 if the calling thread is the
 * first to ask (the state is STARTING now, and the caller starts, then
 * calls gt_tracer_on() or turns tracing off); else waits until the thread
 * that claimed it is done, and returns 0.
 */
int gt_tracer_claim_start(void);

/* Start-up succeeded: every hook records from now on. */
void gt_tracer_on(void);

/*
 * Turns tracing off for good in this process, after one warning made of
 * the given strings. Safe to call from any thread, any number of times.
 * When it happens while starting, lifecycle.c also tells the programs this
 * process runs to stay untraced (gt_session_off).
 */
void gt_disable(const char *first, ...) __attribute__((sentinel));

/*
 * Turns tracing off for good in this process, without a warning: another
 * process of the run already gave it (the run is untraced, or its file
 * cannot grow). Safe to call from any thread.
 */
void gt_stop_quietly(void);

/* ---- lifecycle.c ---------------------------------------------------- */

/*
 * Decides whether the calling hook records this call. Returns 1 with the
 * recursion guard taken (the caller must gt_leave()), 0 if the call is
 * to pass through untraced: tracing is off, or this thread is inside the
 * tracer already. Starts tracing on the first call of the process.
 */
int gt_enter_slow(void);

static inline int gt_enter(void)
{
	if (gt_in_tracer)
		return 0;
	if (__atomic_load_n(&gt_state, __ATOMIC_ACQUIRE) != GT_STATE_ON)
		return gt_enter_slow();
	gt_in_tracer = 1;
	return 1;
}

static inline void gt_leave(void)
{
	gt_in_tracer = 0;
}

/* Status given to exit(), recorded by the exit hook for the END record. */
extern int gt_exit_status;

/* ---- unwind.c ------------------------------------------------------- */

/*
 * Fills ips with the caller's return addresses, innermost first, without
 * the tracer's own frames. Returns how many (at most max). Runs with the
 * guard held; may allocate through libunwind (passes through untraced).
 */
int gt_unwind(uintptr_t *ips, int max);

/* Records the address ranges of libgittrace and libunwind. */
void gt_unwind_init(void);

/*
 * Whether a hooked call comes from libunwind itself. Its per-thread cache
 * is released by a thread-exit destructor, outside the tracer's guard:
 * that munmap/free is the tracer's, not the program's, and is not recorded.
 */
int gt_called_by_unwinder(const void *return_address);

/* ---- stream.c ------------------------------------------------------- */

struct rusage;

/*
 * Appends one CALL record for the calling thread: fn, its start time and
 * duration, the stack (captured here unless in counting mode) and the
 * arguments already encoded (args, args_len bytes: a few varints and at
 * most one path); then, if usage is not NULL, a USAGE record with it (the
 * thread's rusage right after the real call). A call that cannot fit an
 * empty buffer is counted as dropped. Called with the guard held.
 */
void gt_stream_call(enum gt_fn fn, uint64_t start_ns, uint64_t duration_ns, const uint8_t *args,
		    size_t args_len, const struct rusage *usage);

/*
 * Appends one record (tag + body) to the stream, flushing first if needed.
 * For image.c's IMAGE/MODULE/END records. Called with the guard held.
 */
void gt_stream_record(enum gt_record_tag tag, const uint8_t *body, size_t len);

/* Writes what the buffer holds now as a block. Called with the guard held. */
void gt_stream_flush(void);

/*
 * After the image's END record: every later call is written at once, so
 * that calls made by exit handlers or other threads after the end are not
 * lost. Cleared again by an exec that failed.
 */
void gt_stream_set_ended(int ended);

/* Sets up the stream for a new image (at start and in a forked child). */
int gt_stream_init(uint64_t image_id);
void gt_stream_reset_after_fork(uint64_t image_id);

/* Calls recorded and dropped by this image so far. */
uint64_t gt_stream_calls(void);
uint64_t gt_stream_drops(void);
/* Estimated time spent in the tracer so far (sampled, see stream.c). */
uint64_t gt_stream_tracer_ns(void);
uint32_t gt_stream_threads(void);

/*
 * Whether the calling process is the one the stream belongs to. Not so in
 * the child of a vfork (dash runs commands with vfork): it shares the
 * parent's memory until it execs or _exits, and must not end the parent's
 * image. One getpid(2): for exec and _exit, not for every call.
 */
int gt_stream_is_ours(void);

/* ---- stacks.c ------------------------------------------------------- */

/*
 * The image's table of distinct stacks. Returns the id of the stack (from
 * 1), adding it if new (*is_new set to 1, else 0); 0 if it could not be
 * stored (out of memory). Called with the stream lock held.
 */
uint32_t gt_stacks_intern(const uintptr_t *ips, int depth, int *is_new);
/* Forgets every stack: ids restart at 1 (a new image). */
void gt_stacks_reset(void);

/* ---- writer.c ------------------------------------------------------- */

/* The run's trace file, as the session opened it (session.c). */
struct gt_trace_file {
	int fd;		      /* O_APPEND, at GT_FD_FLOOR or above */
	dev_t dev;	      /* its identity, to notice that the program */
	ino_t ino;	      /* closed the fd and reused the number */
	uint64_t fsize_limit; /* RLIMIT_FSIZE, or UINT64_MAX */
};

/*
 * Compresses raw_len bytes of records into one block and appends it with a
 * single write. On any failure tracing is disabled with one warning.
 * Returns 0 on success, -1 on failure. Called with the stream lock held.
 */
int gt_writer_write_block(const struct gt_block_header *h, const uint8_t *raw, size_t raw_len);

/*
 * Prepares the compressor for writing to file (which the writer owns from
 * then on); 0 or -1 (then tracing is disabled).
 */
int gt_writer_init(const struct gt_trace_file *file);
/* In a forked child: the compressor state may be mid-use by a thread that
 * does not exist there. */
void gt_writer_reset_after_fork(void);

/* ---- session.c ------------------------------------------------------ */

/*
 * Opens the run's trace file: the root of a run creates it (safely, see
 * session.c) and tells descendants through GITTRACE_SESSION; a descendant
 * opens the same file. Fills file. Returns 0; -1 after disabling tracing
 * with a warning, or quietly when the run is untraced already.
 * *origin is set to GT_ORIGIN_ROOT or EXEC.
 */
int gt_session_open(int *origin, struct gt_trace_file *file);

/*
 * "GITTRACE_SESSION=..." to add to the environment of a program this
 * process execs or spawns, or NULL before tracing started. gt_session_off
 * makes it "-": the run is untraced from here on.
 */
const char *gt_session_env(void);
void gt_session_off(void);

/* Keep the tracer's descriptors away from the low numbers a program juggles. */
#define GT_FD_FLOOR 700

/*
 * Moves fd to GT_FD_FLOOR or above, close-on-exec, and returns the new
 * number; fd itself if that fails (too low a descriptor limit).
 */
int gt_fd_move_high(int fd);

/*
 * Marks the run's file as one that cannot grow (disk full, size limit), so
 * processes started later stay untraced without warning again.
 */
void gt_session_mark_failed(const struct gt_trace_file *file);

/* ---- exec_env.c ----------------------------------------------------- */

/* What envp needs so that a new program stays in the traced run. */
struct gt_exec_env {
	size_t slots;		 /* entries of the new envp (NULL included); 0: envp as is */
	int add_session;	 /* GITTRACE_SESSION is missing */
	size_t preload_len;	 /* bytes of the new LD_PRELOAD entry (NUL included); 0: none */
	size_t preload_index;	 /* envp's LD_PRELOAD entry to replace; SIZE_MAX: append */
	const char *preload_old; /* its value, kept after libgittrace */
};

/* Finds this library's path (at start, before any exec). */
void gt_exec_env_init(void);

/* Fills e for envp. Allocation-free, like the build below. */
void gt_exec_env_measure(char *const envp[], struct gt_exec_env *e);

/*
 * envp itself if e->slots is 0; else slots (e->slots entries) filled with
 * envp plus what the run needs, the new LD_PRELOAD entry written into
 * preload_buf (e->preload_len bytes).
 */
char *const *gt_exec_env_build(char *const envp[], const struct gt_exec_env *e, char **slots,
			       char *preload_buf);

/* ---- image.c -------------------------------------------------------- */

/*
 * Writes IMAGE and MODULE records of a new image, at once: a process
 * killed before its first block is full still shows in the trace, as cut.
 */
void gt_image_begin(int origin, uint64_t parent_image_id);
/* Writes the MODULE records again (after dlopen). */
void gt_image_modules(void);
/* Writes END and flushes; later calls are written at once. */
void gt_image_end(enum gt_end_reason reason, int status);
/* The exec announced by gt_image_end failed: the image goes on. */
void gt_image_exec_failed(int err);
/* A new random id for an image. */
uint64_t gt_image_new_id(void);
extern uint64_t gt_image_id;

#endif /* GT_PRELOAD_INTERNAL_H */
