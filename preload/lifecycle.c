/*
 * The tracer's life in one process image: start on the first hooked call
 * (or the library constructor, whichever comes first), a new identity in a
 * forked child, and the END record at exit. The start-up sequence is the
 * only code that calls the session, the writer, the stream and image.c in
 * turn; the on/off state itself is tracer.c's.
 */
#include "lifecycle.h"
#include "exec_env.h"
#include "fork_guard.h"
#include "fork_mark.h"
#include "hooks_signal.h"
#include "image.h"
#include "interpose.h"
#include "loader.h"
#include "log.h"
#include "session.h"
#include "settings.h"
#include "stream.h"
#include "tls.h"
#include "tracer.h"
#include "unwind.h"
#include "writer.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

int gt_exit_status = -1;

static void become_child_image(void);
static void after_fork_in_child(void);
static void before_fork_in_parent(void);
static void after_fork_in_parent(void);
static void after_missed_fork(void);
static void end_unless_constructed(int status, void *unused);

/* gt_constructor ran: so will gt_destructor, at exit. */
static int constructed;

/*
 * A signal handler forked while its thread was in a hook: the child goes
 * on with its parent's stream until that hook is done (after_fork_in_child).
 * The child's pid (0: no such fork), so that a vfork child, which shares
 * this memory, does not take the deferred image for its own; and the
 * parent's image id. gt_image_id is the child's already: a process the
 * handler forks in turn is the child's.
 */
static pid_t deferred_pid;
static uint64_t deferred_parent;

/* A caught signal is about to end the process (hooks_signal.c). */
static void end_image_on_signal(int sig)
{
	gt_end_image_abruptly(GT_END_SIGNAL, sig, 0);
}

/*
 * Does the work of starting; runs once, with the guard held. Returns 0
 * with tracing on; -1 with it off (turned off, with a warning or quietly,
 * by the module that failed); 1 with it off in this copy of the library
 * alone, where another copy traces the process.
 */
static int start(void)
{
	int origin = GT_ORIGIN_ROOT;
	struct gt_trace_file file;
	/*
	 * First: where tracing stops here, GITTRACE_SESSION=+ (a new run,
	 * asked for) is this image's still, and becomes "-" for its programs.
	 */
	gt_session_read();
	/* Before any other check: a run warns once, not once per process. */
	if (gt_session_untraced()) {
		gt_stop_quietly();
		return -1;
	}
	const char *sanitizer = gt_sanitizer_runtime();
	if (sanitizer) {
		gt_disable("a sanitizer's runtime (", sanitizer,
			   ") serves this program's allocations: running untraced", NULL);
		return -1;
	}
	if (!gt_hooks_in_front()) {
		/* That copy traces the process; its run stays as it is. */
		if (gt_other_copy_in_front()) {
			gt_stop_quietly();
			return 1;
		}
		gt_disable(
			"another malloc comes before libgittrace.so's (an allocator earlier in "
			"LD_PRELOAD, or the program's own): running untraced; put libgittrace.so "
			"first in LD_PRELOAD",
			NULL);
		return -1;
	}
	/* Only a root warns about settings: its descendants read the same ones. */
	gt_settings_load(&gt_settings, gt_session_given() == NULL);
	if (gt_session_open(&origin, &file))
		return -1;
	/* After the session: in an untraced run (a sandboxed parent's
	 * child) the preload makes no system call. Warnings before it are
	 * the start's, to the stderr the program starts with. */
	gt_log_start();
	gt_unwind_init();
	gt_exec_env_init();
	gt_image_id = gt_image_new_id();
	/* Either disables tracing with a warning; what the writer took goes back. */
	if (gt_writer_init(&file) || gt_stream_init(gt_image_id)) {
		gt_writer_give_back();
		return -1;
	}
	gt_fork_mark_init();
	pthread_atfork(before_fork_in_parent, after_fork_in_parent, after_fork_in_child);
	/*
	 * Tracing starts before this library's constructor when another
	 * library's constructor, run first, calls a hook. If that process
	 * then exits before the constructor runs (a child it forked, or
	 * itself), the loader does not run gt_destructor either: its calls
	 * were lost, and a forked child's image had no END.
	 */
	if (!constructed)
		on_exit(end_unless_constructed, NULL);
	gt_tracer_on();
	gt_image_begin(origin, 0);
	gt_signals_catch(end_image_on_signal);
	return 0;
}

int gt_enter_slow(void)
{
	/* Called from inside its start, before our constructors: start later. */
	if (gt_sanitizer_starting())
		return 0;
	if (gt_tracer_claim_start()) {
		int saved_errno = errno; /* opening the file, the unwinder's init */
		/*
		 * A signal that would end the process while tracing starts (the
		 * image's first records: hundreds of microseconds) took its
		 * default action past a catcher not yet set: it waits until then.
		 */
		sigset_t was;
		gt_signals_hold(&was);
		gt_in_tracer = GT_GUARD_OWN;
		gt_resolve_real();
		/*
		 * A process that could not start tracing tells the programs it
		 * runs not to try (and warn) again. One that stops later does
		 * not: a full disk or size limit marks the file instead
		 * (session.c).
		 */
		if (start() < 0)
			gt_session_off();
		gt_in_tracer = GT_GUARD_NONE;
		gt_signals_release(&was);
		errno = saved_errno;
	}
	if (__atomic_load_n(&gt_state, __ATOMIC_ACQUIRE) != GT_STATE_ON)
		return 0;
	if (gt_fork_missed())
		after_missed_fork();
	gt_in_tracer = GT_GUARD_HOOK;
	return 1;
}

/* This process is a child whose fork was deferred (deferred_pid). */
static int deferred_here(void)
{
	return deferred_pid && deferred_pid == getpid();
}

/*
 * In the child of a fork deferred, on its way out from the handler, or
 * past its last hook: the hook the handler interrupted never resumes, so
 * the child's image can start now. Returns 1 if it did.
 */
static int take_over_deferred(void)
{
	if (!deferred_here() || __atomic_load_n(&gt_state, __ATOMIC_ACQUIRE) != GT_STATE_ON)
		return 0;
	become_child_image();
	return 1;
}

int gt_enter_to_end(void)
{
	/*
	 * A child of a missed fork that made no call yet has nothing of its
	 * own to end, and a vfork child of such a child would make its image
	 * in the memory it shares with it.
	 */
	if (!gt_fork_missed())
		return gt_enter();
	if (!take_over_deferred())
		return 0;
	gt_in_tracer = GT_GUARD_HOOK;
	return 1;
}

int gt_enter_to_exec(void)
{
	/*
	 * As gt_enter_to_end, but the deferred child's image starts here only
	 * once the hook its handler interrupted is done: an exec that fails
	 * goes on, and that hook with it, in a stream begun anew.
	 */
	if (gt_fork_missed() && !deferred_here())
		return 0;
	return gt_enter();
}

void gt_before_exit(void)
{
	/* The exit handlers' calls are the child's to record. */
	if (gt_fork_missed() && take_over_deferred())
		gt_in_tracer = GT_GUARD_NONE;
}

void gt_end_child_forked_meanwhile(enum gt_end_reason reason, int status)
{
	/*
	 * At _exit and exec a vfork child may be here too, in the memory it
	 * shares with the child of a missed fork: only the deferred child
	 * itself ends here. No vfork child runs exit's handlers.
	 */
	if (!gt_fork_missed() || (reason != GT_END_EXIT && !deferred_here()) || !gt_enter())
		return;
	gt_image_end(reason, status);
	gt_leave();
}

void gt_end_image_abruptly(enum gt_end_reason reason, int status, int calls_follow)
{
	gt_abandon_interrupted_hook(calls_follow);
	if (gt_enter_to_end()) {
		if (gt_stream_is_ours())
			gt_image_end(reason, status);
		gt_leave();
		gt_end_child_forked_meanwhile(reason, status);
	}
}

void gt_abandon_interrupted_hook(int calls_follow)
{
	/* Not in a vfork child: the guard it sees is its parent's thread's. */
	if (gt_in_tracer == GT_GUARD_HOOK && !gt_stream_held_here() &&
	    !(calls_follow && gt_fork_guard_entered()) &&
	    __atomic_load_n(&gt_state, __ATOMIC_ACQUIRE) == GT_STATE_ON && !gt_stream_ended() &&
	    gt_stream_is_ours())
		gt_in_tracer = GT_GUARD_NONE;
}

/*
 * quick_exit's status while its handlers run, which a child they fork
 * inherits; and whether such a child's image is still to end there (not
 * if the child called quick_exit itself, whose hook ended it). Only on
 * the thread that runs the handlers.
 */
static GT_TLS int quick_exiting;
static int quick_exit_status, quick_exit_end_pending;

void gt_quick_exit_begins(int status)
{
	quick_exit_status = status;
	quick_exiting = 1;
	quick_exit_end_pending = 0;
}

static void end_child_of_quick_exit(void)
{
	if (!quick_exit_end_pending || !gt_enter_to_end())
		return;
	quick_exit_end_pending = 0;
	gt_image_end(GT_END_UNDERSCORE_EXIT, gt_exit_code(quick_exit_status));
	gt_leave();
}

/*
 * Before an at_quick_exit handler forks: glibc runs a handler registered
 * while the handlers run, the newest first, so this one ends the child's
 * image as soon as the handler that forked returns (and does nothing in
 * the parent); what the older handlers call comes after END, as in the
 * parent. Registered in the parent, before the fork: another thread may
 * hold glibc's lock of the handler lists, which it lets go in time here,
 * and never in a child that inherited it held (the child hung).
 */
static void before_fork_in_parent(void)
{
	gt_signals_before_fork();
#ifdef __GLIBC__
	if (quick_exiting) {
		struct gt_own saved_guard = gt_own_begin(); /* the list may grow by calloc */
		at_quick_exit(end_child_of_quick_exit);
		gt_own_end(&saved_guard);
	}
#endif
}

/* In daemon() on this thread (gt_daemon_begins). */
static GT_TLS int daemonizing;

void gt_daemon_begins(void)
{
	daemonizing = 1;
}

void gt_daemon_ends(void)
{
	daemonizing = 0;
}

static void after_fork_in_parent(void)
{
	if (daemonizing) {
		daemonizing = 0;
		gt_end_image_abruptly(GT_END_UNDERSCORE_EXIT, 0, 0);
	}
}

void gt_note_busy(void)
{
	if (__atomic_load_n(&gt_state, __ATOMIC_ACQUIRE) == GT_STATE_ON)
		gt_stream_note_busy();
}

/*
 * Makes this process, a forked child, an image of its own. Only the
 * forking thread exists here; whatever the others were doing to the
 * stream is discarded with the parent's unwritten records, which the
 * parent writes itself.
 */
static void become_child_image(void)
{
	int saved_errno = errno;
	/* Not a child that a deferred child forked in turn, past the hooks. */
	int deferred = deferred_here();
	uint64_t parent = deferred ? deferred_parent : gt_image_id;
	struct gt_own saved_guard = gt_own_begin();
	if (!deferred)
		gt_image_id = gt_image_new_id();
	deferred_pid = 0;
	gt_loader_forked();
	gt_session_forked();
	gt_writer_reset_after_fork();
	gt_stream_reset_after_fork(gt_image_id);
	gt_fork_mark_set();
	gt_image_begin(GT_ORIGIN_FORK, parent);
	quick_exit_end_pending = quick_exiting;
	gt_own_end(&saved_guard);
	errno = saved_errno;
}

/* pthread_atfork child handler: runs in every forked child, including
 * forks inside libc that no hook sees. */
static void after_fork_in_child(void)
{
	gt_signals_after_fork_in_child();
	if (__atomic_load_n(&gt_state, __ATOMIC_ACQUIRE) != GT_STATE_ON)
		return;
	if (gt_fork_mark_works()) {
		/* A hook called by a handler that ran before this one has
		 * done it already (gt_enter_slow). */
		if (!gt_fork_missed())
			return;
		/*
		 * A signal handler forked while its thread was in a hook:
		 * that hook goes on with the parent's stream once the handler
		 * returns. The next hook, after it, does this (the writer
		 * writes nothing of the parent's meanwhile: stream.c), or
		 * one that ends the process from the handler
		 * (gt_enter_to_end, gt_before_exit).
		 */
		if (gt_in_tracer != GT_GUARD_NONE) {
			deferred_pid = getpid();
			deferred_parent = gt_image_id;
			gt_image_id = gt_image_new_id();
			gt_stream_fork_deferred();
			return;
		}
	}
	become_child_image();
}

/*
 * The first hook in the child of a fork that ran none of the tracer's
 * handlers (fork_mark.h). The parent's other threads, if it had any, may
 * have been inside libunwind or libdw at the fork.
 */
static void after_missed_fork(void)
{
	gt_in_tracer = GT_GUARD_OWN;
	/*
	 * A deferred fork ran the fork handlers. Any other ran none in the
	 * parent: what this memory holds is the parent's state at the fork.
	 */
	if (!deferred_here()) {
		gt_signals_before_fork();
		gt_signals_after_fork_in_child();
		gt_fork_guard_after_missed_fork(gt_stream_threads() > 1);
	}
	become_child_image();
}

void gt_need_session(void)
{
	if (gt_enter())
		gt_leave();
}

void gt_before_unseen_fork(int parent_waits)
{
	gt_need_session();
	before_fork_in_parent();
	gt_fork_guard_before_unseen_fork(parent_waits);
}

void gt_after_unseen_fork(long ret)
{
	int saved_errno = errno;
	/* In pthread_atfork's order: the fork guard registered first. */
	gt_fork_guard_after_unseen_fork(ret == 0);
	if (ret == 0)
		after_fork_in_child();
	errno = saved_errno;
}

/* Start even if the program never allocates before main. */
__attribute__((constructor)) static void gt_constructor(void)
{
	constructed = 1;
	if (gt_enter())
		gt_leave();
}

/*
 * The exit handler gt_destructor registers: runs after the last finalizer,
 * with the status exit() was given.
 */
static void end_after_finalizers(int status, void *unused)
{
	(void)unused;
	if (!gt_enter_to_end())
		return;
	gt_image_end(GT_END_EXIT, gt_exit_code(status));
	gt_leave();
	gt_end_child_forked_meanwhile(GT_END_EXIT, gt_exit_code(status));
}

/* The exit handler start() registers; gt_destructor's work once it cannot run. */
static void end_unless_constructed(int status, void *unused)
{
	(void)unused;
	if (constructed || !gt_enter_to_end())
		return;
	gt_image_end(GT_END_EXIT, gt_exit_code(status));
	gt_leave();
	gt_end_child_forked_meanwhile(GT_END_EXIT, gt_exit_code(status));
}

/*
 * Runs late in exit(), inside the loader's exit handler, which finalizes
 * the objects in turn: after the program's atexit handlers and the
 * destructors of objects loaded after us, but before those of the objects
 * the program needs, which the loader initialized before us (a C++
 * program's libraries and their static objects). Their frees would come
 * after END, which the stream writes a block each (5 µs and 100 bytes a
 * call, and a clang tool makes thousands). glibc calls an exit handler
 * registered from an exit handler once that one returns, so END waits for
 * the last finalizer. on_exit, not atexit: atexit ties the handler to this
 * library, whose own finalizer would run it at once. If the registration
 * is refused (a C library that takes none once exit has begun), the image
 * ends here. The records so far are written now: a finalizer that crashes
 * takes only its own calls.
 */
__attribute__((destructor)) static void gt_destructor(void)
{
	if (!gt_enter_to_end())
		return;
	if (on_exit(end_after_finalizers, NULL) == 0)
		gt_stream_flush();
	else
		gt_image_end(GT_END_EXIT, gt_exit_status);
	gt_leave();
}
