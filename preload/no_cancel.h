/*
 * Thread cancellation kept out of the tracer. A thread that another one
 * cancelled (deferred, the default) acts on it at its next cancellation
 * point: write, read, open, close, sigwait, getrandom and the like.
 * malloc, free, fork, exec and exit are none, and a program may count on
 * that: it cancels a thread that allocates and joins it later. The
 * tracer's work inside them makes such calls, and cancelled there a
 * thread died holding the stream's lock (the program hung), or a child of
 * fork, an exec or an exit never ran the program's code. So the tracer
 * makes them with cancellation disabled, and the program's own next
 * cancellation point acts on the request, as untraced.
 */
#ifndef GT_NO_CANCEL_H
#define GT_NO_CANCEL_H

#include <pthread.h>

/* Disables cancellation; returns what to give gt_cancel_restore. */
static inline int gt_cancel_off(void)
{
	int state;
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &state);
	return state;
}

/* Deferred cancellation acts at the next cancellation point, not here. */
static inline void gt_cancel_restore(int state)
{
	pthread_setcancelstate(state, NULL);
}

#endif /* GT_NO_CANCEL_H */
