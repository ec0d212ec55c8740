/*
 * The tracer's life in one process image (lifecycle.c): what a hook asks
 * before recording, which starts tracing on the first call; the END at
 * exit.
 */
#ifndef GT_LIFECYCLE_H
#define GT_LIFECYCLE_H

#include "fork_mark.h"
#include "gittrace/format.h"
#include "tracer.h"

/*
 * Decides whether the calling hook records this call. Returns 1 with the
 * recursion guard taken (the caller must gt_leave()), 0 if the call is
 * to pass through untraced: tracing is off, or this thread is inside the
 * tracer already. Starts tracing on the first call of the process; makes
 * the child of a fork no handler saw an image of its own (fork_mark.h).
 */
int gt_enter_slow(void);

static inline int gt_enter(void)
{
	if (gt_in_tracer)
		return 0;
	if (__atomic_load_n(&gt_state, __ATOMIC_ACQUIRE) != GT_STATE_ON || gt_fork_missed())
		return gt_enter_slow();
	gt_in_tracer = GT_GUARD_HOOK;
	return 1;
}

/*
 * gt_enter for what ends the image (exit, _exit): also in a child that a
 * signal handler forked while its thread was in a hook, and that ends
 * from the handler, where gt_enter finds the thread in the tracer
 * already. Returns 0 in a child of a fork no hook has seen yet, which has
 * no image of its own to end: its calls would make one, but a vfork child
 * of it shares its memory.
 */
int gt_enter_to_end(void);

/*
 * gt_enter for an exec, which a vfork child may make: 0 in a child of a
 * fork no hook has seen yet (as gt_enter_to_end), and in one forked by a
 * signal handler while its thread was in a hook, until that hook is done.
 */
int gt_enter_to_exec(void);

/*
 * At exit(), before its handlers run: a child that a signal handler forked
 * while its thread was in a hook, and that exits from the handler, starts
 * its image here, so that the calls of its exit handlers are recorded.
 */
void gt_before_exit(void);

/*
 * After a hook that ended the image (exit, _exit, exec) let go: a child
 * forked meanwhile goes on past its last hook here. A signal handler
 * forked it while that hook was at work, or (exit) it came after this
 * library's finalizer, when glibc has dropped the tracer's fork handlers.
 * Its image starts and ends now.
 */
void gt_end_child_forked_meanwhile(enum gt_end_reason reason, int status);

/*
 * exit, _exit and quick_exit never return: a hook that the signal handler
 * calling them interrupted on this thread never resumes, and its guard
 * kept the image from ending (no END, the unwritten block lost, the report
 * took the process for killed). Where the hook stands outside the stream,
 * in its real call or between its steps, nothing it holds is needed to
 * end the image: its guard is dropped, and the image ends as from any
 * exit. Inside, nothing changes. With calls_follow (exit, whose handlers'
 * calls are recorded), not either where the hook stands between the fork
 * guard's two calls: those calls' stacks may need libunwind's and libdw's
 * locks, which the hook may hold. A signal that came while they ran, held
 * back (tracer.h, gt_own_begin), arrives right there.
 */
void gt_abandon_interrupted_hook(int calls_follow);

/*
 * Ends the image where the process ends past exit's handlers: at _exit,
 * _Exit and quick_exit, and from a handler of a signal about to kill it
 * (hooks_signal.c). A hook this thread was in, interrupted by the handler
 * that ends the process, is abandoned (gt_abandon_interrupted_hook, with
 * calls_follow: quick_exit's handlers' calls are recorded after END);
 * inside the stream, nothing is written. Not a vfork parent's image.
 */
void gt_end_image_abruptly(enum gt_end_reason reason, int status, int calls_follow);

/*
 * quick_exit(status) has ended the image and runs the at_quick_exit
 * handlers, after which libc ends the process past every hook: a child
 * that a handler forks ends its own image, with the same status, when that
 * handler returns (else its calls and its END were lost).
 */
void gt_quick_exit_begins(int status);

/*
 * Around daemon(), on the thread that calls it: it forks, then ends the
 * parent with _exit(0) inside libc, past the _exit hook. The fork's parent
 * handler ends the parent's image there, as that hook would.
 */
void gt_daemon_begins(void);
void gt_daemon_ends(void);

/* Counts a call a signal handler made while its thread was in a hook's own work. */
void gt_note_busy(void);

/*
 * gt_enter for the hooks that record a CALL. A call that comes while this
 * thread is in a hook's own work was made by a signal handler: it cannot
 * be recorded (the hook may hold the stream), so it is counted, and the
 * trace says how many were dropped (format.h, DROPPED, reason busy).
 */
static inline int gt_enter_call(void)
{
	if (gt_in_tracer == GT_GUARD_HOOK) {
		gt_note_busy();
		return 0;
	}
	return gt_enter();
}

static inline void gt_leave(void)
{
	gt_in_tracer = GT_GUARD_NONE;
}

/*
 * Starts tracing if no hook has yet, before a fork or a spawn makes a new
 * process: else the child, or the spawned program (whose environment would
 * not name the run's file), took itself for the first process of a run of
 * its own and truncated the trace file.
 */
void gt_need_session(void);

/*
 * Around a fork that runs no pthread_atfork handler (tracing started
 * first, as gt_need_session does): _Fork(), glibc's clone() without
 * CLONE_VM (hooks_fork.c), fork or clone made through syscall()
 * (hooks_syscall.c). What the tracer's handlers do at a fork, so that
 * the child is an image of its own and does not write its parent's
 * records again. parent_waits: the clone returns in the parent once the
 * child exits or execs (CLONE_VFORK). ret is what the clone returned: 0
 * in the child. Handlers others registered run no more than they do
 * untraced.
 */
void gt_before_unseen_fork(int parent_waits);
void gt_after_unseen_fork(long ret);

/* Status given to exit(), recorded by the exit hook for the END record. */
extern int gt_exit_status;

/*
 * The exit status a parent sees when the process ends with status (given
 * to exit or _exit, or returned by main): its low 8 bits. exit(300) ends
 * with 44, and exit(-1) with 255, where -1 in END means unknown.
 */
static inline int gt_exit_code(int status)
{
	return status & 0xff;
}

#endif /* GT_LIFECYCLE_H */
