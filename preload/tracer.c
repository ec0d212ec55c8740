/*
 * The one switch that says whether this process image is traced, and the
 * recursion guard. This file alone writes gt_state: lifecycle.c moves it
 * through start-up with the functions below, and any module that finds it
 * cannot go on turns tracing off with gt_disable() or gt_stop_quietly().
 * It depends on nothing but log.c, so every module may call it.
 */
#include "tracer.h"
#include "log.h"

#include <sched.h>
#include <stdarg.h>
#include <string.h>

GT_TLS int gt_in_tracer;
int gt_real_call_guard = GT_GUARD_OWN;
int gt_state = GT_STATE_NEW;

int gt_tracer_claim_start(void)
{
	int expected = GT_STATE_NEW;
	if (__atomic_compare_exchange_n(&gt_state, &expected, GT_STATE_STARTING, 0,
					__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return 1;
	/* Another thread is starting: wait, so its call is not lost. */
	while (__atomic_load_n(&gt_state, __ATOMIC_ACQUIRE) == GT_STATE_STARTING)
		sched_yield();
	return 0;
}

void gt_tracer_on(void)
{
	__atomic_store_n(&gt_state, GT_STATE_ON, __ATOMIC_RELEASE);
}

void gt_disable(const char *first, ...)
{
	int prev = __atomic_exchange_n(&gt_state, GT_STATE_OFF, __ATOMIC_ACQ_REL);
	if (prev == GT_STATE_OFF)
		return; /* already off: warned once */

	char line[768];
	size_t len = 0;
	va_list ap;
	va_start(ap, first);
	for (const char *s = first; s && len < sizeof(line) - 1; s = va_arg(ap, const char *)) {
		size_t n = strlen(s);
		if (n > sizeof(line) - 1 - len)
			n = sizeof(line) - 1 - len;
		memcpy(line + len, s, n);
		len += n;
	}
	va_end(ap);
	line[len] = '\0';
	gt_warn(line, NULL);
}

void gt_stop_quietly(void)
{
	__atomic_store_n(&gt_state, GT_STATE_OFF, __ATOMIC_RELEASE);
}

const char *gt_strerror(int err)
{
	struct gt_own guard = gt_own_begin();
	const char *s = strerror(err);
	gt_own_end(&guard);
	return s;
}
