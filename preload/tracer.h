/*
 * Whether this process image is traced: the one on/off state and the
 * recursion guard (tracer.c). The bottom of the preload: any module may
 * turn tracing off, and none is called from here.
 */
#ifndef GT_TRACER_H
#define GT_TRACER_H

#include "tls.h"

#include <pthread.h>
#include <signal.h>

/*
 * The recursion guard: what this thread is doing inside the tracer. A
 * hooked call made meanwhile passes straight through, unrecorded.
 */
enum gt_guard {
	GT_GUARD_NONE, /* outside the tracer */
	/*
	 * A hook's own work: recording, walking a stack, writing a block. No
	 * code of the tracer's calls a hooked function there, so such a call
	 * comes from a signal handler that interrupted the hook: the program's,
	 * counted as dropped (lifecycle.h, gt_enter_call).
	 */
	GT_GUARD_HOOK,
	/*
	 * The tracer's start-up, or a library working for it (libunwind, libdw,
	 * dlsym): the calls they make are the tracer's own (gt_own_begin).
	 */
	GT_GUARD_OWN,
};
extern GT_TLS int gt_in_tracer; /* enum gt_guard */

/*
 * The guard a recording hook holds while the real function runs:
 * GT_GUARD_HOOK when libc serves the malloc family and the maps itself (it
 * calls no hooked function inside them, so a call made meanwhile comes
 * from a signal handler); GT_GUARD_OWN when another library does (an
 * allocator preloaded after libgittrace), whose own mmaps pass through as
 * they always did. Set by gt_resolve_real (interpose.h).
 */
extern int gt_real_call_guard;

static inline void gt_real_begin(void)
{
	gt_in_tracer = gt_real_call_guard;
}

static inline void gt_real_end(void)
{
	gt_in_tracer = GT_GUARD_HOOK;
}

/*
 * Around code whose hooked calls are the tracer's own: libdw, libelf and
 * libunwind allocate from the program's malloc, and dlsym and strerror may.
 * Every signal but a fault's is blocked meanwhile (glibc keeps its own two): a handler
 * that mallocs was safe where it interrupted a map call, which cannot be
 * inside malloc, but inside a hook it could land in that malloc (the heap
 * corrupted, or the handler waiting on the arena its thread held). The
 * signal waits for the tracer's work: microseconds, a module's first
 * reading longer. Returns what gt_own_end restores.
 */
struct gt_own {
	int guard;
	sigset_t mask;
};

static inline struct gt_own gt_own_begin(void)
{
	struct gt_own was = {.guard = gt_in_tracer};
	sigset_t all;
	sigfillset(&all);
	/* Not those a fault raises: blocked, the kernel would kill past the program's handler. */
	static const int faults[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS};
	for (size_t i = 0; i < sizeof(faults) / sizeof(faults[0]); i++)
		sigdelset(&all, faults[i]);
	pthread_sigmask(SIG_BLOCK, &all, &was.mask);
	gt_in_tracer = GT_GUARD_OWN;
	return was;
}

static inline void gt_own_end(const struct gt_own *was)
{
	gt_in_tracer = was->guard;
	pthread_sigmask(SIG_SETMASK, &was->mask, NULL);
}

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

/* strerror, whose messages (a locale's translation) may come from malloc: the tracer's own. */
const char *gt_strerror(int err);

#endif /* GT_TRACER_H */
