/*
 * Whether this process image is traced: the one on/off state and the
 * recursion guard (tracer.c). The bottom of the preload: any module may
 * turn tracing off, and none is called from here.
 */
#ifndef GT_TRACER_H
#define GT_TRACER_H

#include "tls.h"

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

#endif /* GT_TRACER_H */
