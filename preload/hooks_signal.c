/*
 * A process that a signal kills loses the records it has not written yet:
 * up to a second of calls, and all of a short run's. That is how most git
 * runs that do not exit end: `git log | head` and a pager quit early
 * (SIGPIPE), Ctrl-C (SIGINT), kill and timeout (SIGTERM), a closed terminal
 * (SIGHUP); and less often a limit (SIGXCPU, SIGXFSZ under ulimit), a
 * timer left at its default (SIGALRM), Ctrl-\ (SIGQUIT). Untraced, `git
 * log -p | head -1` dies of SIGPIPE in its first write past the pipe's
 * end; traced, it left an image with no call.
 *
 * So each of those signals (format.h, GT_CAUGHT_SIGNALS, says which and
 * why not others) that is at its default action when the tracer starts
 * gets a handler (catcher) that ends the image, writing what the tracer
 * holds and an END of reason signal, then puts the default back and
 * raises the signal again: the process dies of it as untraced, with
 * the same status for its parent. A signal the program ignores, handles or
 * blocks is never seen here. Nothing else changes: the program sets and
 * reads these signals' actions through the sigaction and signal hooks
 * below, which answer the default where the catcher stands, and put the
 * catcher back where the program asks for the default (git's own handlers
 * clean up, set the default and raise). An exec resets the catcher to the
 * default, as it resets every handled signal; the program it starts
 * catches them again if it is traced.
 *
 * Where the signal interrupted the tracer inside its stream, the image
 * cannot end there: the signal waits until the thread lets the stream go,
 * microseconds on (gt_stream_hold_signal), and the process dies of it from
 * there. Not caught in an init (pid 1, or a child forked into a new pid
 * namespace), whose default actions the kernel does not carry out; caught
 * again in the children an init forks. Not hidden: /proc/self/status's
 * SigCgt, and actions read with the system call itself or with sigset,
 * sysv_signal and bsd_signal. Linux only, as the other signal hooks.
 */
#include "hooks_signal.h"

#include "gittrace/format.h"
#include "interpose.h"
#include "stream.h"
#include "tracer.h"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#define GT_SIGNAL(number, name) SIG##name,
static const int caught_signals[] = {GT_CAUGHT_SIGNALS(GT_SIGNAL)};
#undef GT_SIGNAL
#define GT_LINUX_NUMBER(number, name)                                                              \
	_Static_assert(SIG##name == (number), "SIG" #name " as format.h numbers it");
GT_CAUGHT_SIGNALS(GT_LINUX_NUMBER)
#undef GT_LINUX_NUMBER
#define GT_CAUGHT (sizeof(caught_signals) / sizeof(caught_signals[0]))

/*
 * Whether the catchers are in use (from the start until a sandbox), and for
 * each caught signal the action the program reads where the catcher stands:
 * the default it had at the start, or the default it last set, as the
 * system gave it back then (flags and mask included).
 */
static int catching;
static struct sigaction program_default[GT_CAUGHT];

/*
 * A vfork child (or a child cloned with CLONE_VM) that gave the catchers
 * back, in memory it shares with a parent that still catches: the parent's
 * `catching` stays, and only this process stops.
 */
static pid_t gave_back_in;

/* glibc's own names for the two, where the hooks run before dlsym has answered. */
extern int __sigaction(int sig, const struct sigaction *act, struct sigaction *oldact);

static int real_sigaction(int sig, const struct sigaction *act, struct sigaction *oldact)
{
	if (!gt_real_sigaction)
		gt_resolve_real();
	return gt_real_sigaction ? gt_real_sigaction(sig, act, oldact)
				 : __sigaction(sig, act, oldact);
}

static sighandler_t real_signal(int sig, sighandler_t handler)
{
	if (!gt_real_signal)
		gt_resolve_real();
	return gt_real_signal ? gt_real_signal(sig, handler) : ssignal(sig, handler);
}

static int catching_here(void)
{
	return catching && !(gave_back_in && gave_back_in == getpid());
}

/* The index of sig in caught_signals while catching, else -1. */
static int caught_index(int sig)
{
	if (!catching_here())
		return -1;
	for (unsigned i = 0; i < GT_CAUGHT; i++)
		if (caught_signals[i] == sig)
			return (int)i;
	return -1;
}

static void catcher(int sig);

/* Ends the image before a caught signal ends the process (gt_signals_catch's). */
static void (*end_image)(int sig);

static int is_catcher(const struct sigaction *a)
{
	return !(a->sa_flags & SA_SIGINFO) && a->sa_handler == catcher;
}

/* The catcher's action: every other signal blocked while it runs. */
static struct sigaction catcher_action(void)
{
	struct sigaction a = {.sa_handler = catcher, .sa_flags = SA_RESTART};
	sigfillset(&a.sa_mask);
	return a;
}

/*
 * Sets caught signal i's action: the catcher where act asks for the
 * default, else act, in one system call, so that no action another thread
 * (or a handler) sets meanwhile is overwritten. *old gets the action
 * before, as the program reads it.
 */
static int set_caught(int i, const struct sigaction *act, struct sigaction *old)
{
	int sig = caught_signals[i];
	struct sigaction asked = act ? *act : (struct sigaction){0}; /* act may be old */
	int to_default = act && asked.sa_handler == SIG_DFL;
	struct sigaction before = program_default[i], was, catch = catcher_action(), now;
	if (real_sigaction(sig, to_default ? &catch : act, &was))
		return -1;
	/*
	 * What the program reads back of its default: as it set it, with what
	 * the C library adds to every action (SA_RESTORER and its restorer on
	 * Linux), which the catcher carries now.
	 */
	if (to_default && real_sigaction(sig, NULL, &now) == 0 && is_catcher(&now)) {
		asked.sa_flags |= now.sa_flags & ~catch.sa_flags;
		asked.sa_restorer = now.sa_restorer;
		program_default[i] = asked;
	}
	if (old)
		*old = is_catcher(&was) ? before : was;
	return 0;
}

static void catcher(int sig)
{
	int i = caught_index(sig);
	/*
	 * An init (pid 1: a child forked into a new pid namespace, whose catcher
	 * the fork handler below missed) lives on: the kernel drops the signal.
	 * Inside the stream, the image cannot end: the signal waits until this
	 * thread lets the stream go, and ends the process from there.
	 */
	if (getpid() != 1 && gt_stream_hold_signal(sig, catcher))
		return;
	if (getpid() != 1)
		end_image(sig);
	struct sigaction dfl = {.sa_handler = SIG_DFL};
	real_sigaction(sig, i >= 0 ? &program_default[i] : &dfl, NULL);
	sigset_t only;
	sigemptyset(&only);
	sigaddset(&only, sig);
	pthread_sigmask(SIG_UNBLOCK, &only, NULL);
	raise(sig); /* the default action: the process ends here, but an init's */
}

/* Each caught signal at its default action gets the catcher. */
static void catch_defaults(void)
{
	catching = 1;
	struct sigaction catch = catcher_action();
	for (unsigned i = 0; i < GT_CAUGHT; i++) {
		struct sigaction now, was;
		if (real_sigaction(caught_signals[i], NULL, &now) || now.sa_handler != SIG_DFL)
			continue;
		program_default[i] = now;
		/* Another thread's action, set meanwhile, stays. */
		if (real_sigaction(caught_signals[i], &catch, &was) == 0 &&
		    was.sa_handler != SIG_DFL)
			real_sigaction(caught_signals[i], &was, NULL);
	}
}

/*
 * A forked child's memory is its own: it catches as its parent did when it
 * forked (the flag the parent shared with a vfork child says otherwise).
 */
static int catching_at_fork;

void gt_signals_before_fork(void)
{
	catching_at_fork = catching_here();
}

/*
 * A child forked into a new pid namespace is its init: no catcher there. A
 * child an init forks is none: it catches, unless tracing stopped (a
 * sandbox gave the catchers back).
 */
void gt_signals_after_fork_in_child(void)
{
	catching = catching_at_fork;
	gave_back_in = 0;
	if (getpid() == 1)
		gt_signals_give_back();
	else if (!catching && __atomic_load_n(&gt_state, __ATOMIC_ACQUIRE) == GT_STATE_ON)
		catch_defaults();
}

void gt_signals_hold(sigset_t *was)
{
	sigset_t caught;
	sigemptyset(&caught);
	for (unsigned i = 0; i < GT_CAUGHT; i++)
		sigaddset(&caught, caught_signals[i]);
	pthread_sigmask(SIG_BLOCK, &caught, was);
}

void gt_signals_release(const sigset_t *was)
{
	pthread_sigmask(SIG_SETMASK, was, NULL);
}

void gt_signals_catch(void (*end_image_on_signal)(int sig))
{
	end_image = end_image_on_signal;
	if (getpid() != 1)
		catch_defaults();
}

void gt_signals_give_back(void)
{
	for (unsigned i = 0; catching && i < GT_CAUGHT; i++) {
		struct sigaction now;
		if (real_sigaction(caught_signals[i], NULL, &now) == 0 && is_catcher(&now))
			real_sigaction(caught_signals[i], &program_default[i], NULL);
	}
	if (gt_stream_is_ours())
		catching = 0;
	else if (catching)
		gave_back_in = getpid();
}

GT_EXPORT int GT_HOOK_NAME(sigaction)(int sig, const struct sigaction *act,
				      struct sigaction *oldact)
{
	int i = caught_index(sig);
	return i < 0 ? real_sigaction(sig, act, oldact) : set_caught(i, act, oldact);
}

/*
 * glibc's signal() is BSD's: restarting, the signal blocked in its handler.
 * A handler or SIG_IGN goes to the real one, whose flags also follow
 * siginterrupt(); the default is set as signal() sets it, as the catcher.
 */
GT_EXPORT sighandler_t GT_HOOK_NAME(signal)(int sig, sighandler_t handler)
{
	int i = caught_index(sig);
	if (i < 0 || handler != SIG_DFL) {
		sighandler_t old = real_signal(sig, handler);
		return old == catcher ? SIG_DFL : old;
	}
	struct sigaction dfl = {.sa_handler = SIG_DFL, .sa_flags = SA_RESTART}, old;
	sigemptyset(&dfl.sa_mask);
	sigaddset(&dfl.sa_mask, sig);
	return set_caught(i, &dfl, &old) ? SIG_ERR : old.sa_handler;
}
