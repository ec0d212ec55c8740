/*
 * The tracer's life in one process image (lifecycle.c): what a hook asks
 * before recording, which starts tracing on the first call; the END at
 * exit.
 */
#ifndef GT_LIFECYCLE_H
#define GT_LIFECYCLE_H

#include "tracer.h"

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

#endif /* GT_LIFECYCLE_H */
