/* The records written before a signal ends the process (hooks_signal.c). */
#ifndef GT_HOOKS_SIGNAL_H
#define GT_HOOKS_SIGNAL_H

#include <signal.h>

#ifdef __linux__
/*
 * Around tracing's start: the signals caught are held back in this thread
 * (*was gets its mask before), and let go once gt_signals_catch has set
 * their catchers, so that one that comes meanwhile finds the catcher.
 */
void gt_signals_hold(sigset_t *was);
void gt_signals_release(const sigset_t *was);

/*
 * Once tracing is on: each caught signal at its default action gets the
 * catcher, which calls end_image_on_signal before the process dies of it
 * (where a signal is held back in the stream, once the stream is let go).
 */
void gt_signals_catch(void (*end_image_on_signal)(int sig));

/*
 * Around a fork, from the tracer's own fork handlers (lifecycle.c): the
 * child catches as its parent did, but where it is an init (pid 1).
 */
void gt_signals_before_fork(void);
void gt_signals_after_fork_in_child(void);

/*
 * Before a seccomp sandbox, which may forbid what the handler does: each
 * signal handled goes back to its default action, and stays the program's.
 */
void gt_signals_give_back(void);
#else /* the signal hooks are Linux's */
static inline void gt_signals_hold(sigset_t *was)
{
	(void)was;
}
static inline void gt_signals_release(const sigset_t *was)
{
	(void)was;
}
static inline void gt_signals_catch(void (*end_image_on_signal)(int sig))
{
	(void)end_image_on_signal;
}
static inline void gt_signals_before_fork(void)
{
}
static inline void gt_signals_after_fork_in_child(void)
{
}
#endif

#endif /* GT_HOOKS_SIGNAL_H */
