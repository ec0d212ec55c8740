/*
 * The tracer's life in one process image: start on the first hooked call
 * (or the library constructor, whichever comes first), a new identity in a
 * forked child, and the END record at exit. Also the one switch that turns
 * tracing off when something goes wrong.
 */
#include "internal.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

GT_TLS int gt_in_tracer;
int gt_state = GT_STATE_NEW;
int gt_exit_status = -1;

static void after_fork_in_child(void);

/* Does the work of starting; runs once, with the guard held. */
static void start(void)
{
	int origin = GT_ORIGIN_ROOT;
	struct gt_trace_file file;
	/* Only a root warns about settings: its descendants read the same ones. */
	gt_settings_load(&gt_settings, secure_getenv("GITTRACE_SESSION") == NULL);
	if (gt_session_open(&origin, &file))
		return;
	gt_unwind_init();
	gt_exec_env_init();
	gt_image_id = gt_image_new_id();
	if (gt_writer_init(&file) || gt_stream_init(gt_image_id))
		return; /* disabled with a warning */
	pthread_atfork(NULL, NULL, after_fork_in_child);
	__atomic_store_n(&gt_state, GT_STATE_ON, __ATOMIC_RELEASE);
	gt_image_begin(origin, 0);
}

int gt_enter_slow(void)
{
	int expected = GT_STATE_NEW;
	if (__atomic_compare_exchange_n(&gt_state, &expected, GT_STATE_STARTING, 0,
					__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		int saved_errno = errno; /* opening the file, the unwinder's init */
		gt_in_tracer = 1;
		gt_resolve_real();
		start();
		gt_in_tracer = 0;
		errno = saved_errno;
	} else {
		/* Another thread is starting: wait, so its call is not lost. */
		while (__atomic_load_n(&gt_state, __ATOMIC_ACQUIRE) == GT_STATE_STARTING)
			sched_yield();
	}
	if (__atomic_load_n(&gt_state, __ATOMIC_ACQUIRE) != GT_STATE_ON)
		return 0;
	gt_in_tracer = 1;
	return 1;
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

	/*
	 * A process that could not start tracing tells the programs it runs
	 * not to try (and warn) again. One that stops later does not: a
	 * full disk or size limit marks the file instead (session.c).
	 */
	if (prev == GT_STATE_STARTING || prev == GT_STATE_NEW)
		gt_session_off();
}

void gt_stop_quietly(void)
{
	__atomic_store_n(&gt_state, GT_STATE_OFF, __ATOMIC_RELEASE);
}

/*
 * pthread_atfork child handler: runs in every forked child, including
 * forks inside libc that no hook sees. Only the forking thread exists
 * here; whatever the others were doing to the stream is discarded with the
 * parent's unwritten records, which the parent writes itself.
 */
static void after_fork_in_child(void)
{
	if (__atomic_load_n(&gt_state, __ATOMIC_ACQUIRE) != GT_STATE_ON)
		return;
	int saved_errno = errno;
	int saved_guard = gt_in_tracer;
	uint64_t parent = gt_image_id;
	gt_in_tracer = 1;
	gt_image_id = gt_image_new_id();
	gt_writer_reset_after_fork();
	gt_stream_reset_after_fork(gt_image_id);
	gt_image_begin(GT_ORIGIN_FORK, parent);
	gt_in_tracer = saved_guard;
	errno = saved_errno;
}

/* Start even if the program never allocates before main. */
__attribute__((constructor)) static void gt_constructor(void)
{
	if (gt_enter())
		gt_leave();
}

/*
 * Runs late in exit(): after the program's atexit handlers and the
 * destructors of objects loaded after us.
 */
__attribute__((destructor)) static void gt_destructor(void)
{
	if (!gt_enter())
		return;
	gt_image_end(GT_END_EXIT, gt_exit_status);
	gt_leave();
}
