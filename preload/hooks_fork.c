/*
 * Forks. A forked child is an image of its own, made by the tracer's
 * pthread_atfork handler (lifecycle.c), which also runs for forks inside
 * libc that no hook sees. The hooks here are for what that misses:
 *
 * fork() before tracing started (from a library's constructor that runs
 * before the tracer's first hook): parent and child each started a run of
 * their own later, and the second truncated the first's trace. The hook
 * starts tracing in the parent first, as spawn does (hooks_process.c).
 *
 * _Fork() and glibc's clone() without CLONE_VM run no pthread_atfork
 * handler. The child kept its parent's stream and wrote the parent's
 * unwritten records again, under the parent's image and block numbers
 * (the report refused the trace as corrupt); a clone child whose function
 * returned was ended by glibc with the exit system call, past every hook,
 * and its calls were lost without a word. The hooks do what the tracer's
 * fork handlers do around them (lifecycle.h); a clone child starts in
 * child_start, which ends its image with _exit when the function returns
 * (as glibc's exit system call would have ended it, if it has one thread
 * only). A thread, a vfork child (CLONE_VM), a child with a thread pointer
 * of its own (CLONE_SETTLS: the tracer's thread-local data is not there),
 * and a call that fails (no function or stack) pass through.
 *
 * Linux only (hooks.def).
 */
#if defined(__linux__)
#include "interpose.h"
#include "lifecycle.h"
#include "no_cancel.h"
#include "stream.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

/*
 * gt_need_session resolves them, but not when this thread is in the tracer
 * already: a signal handler that forks inside the first hook's start.
 */
static void need_real(void)
{
	if (!gt_real_fork)
		gt_resolve_real();
}

GT_EXPORT pid_t GT_HOOK_NAME(fork)(void)
{
	gt_need_session();
	need_real();
	return gt_real_fork();
}

GT_EXPORT pid_t GT_HOOK_NAME(_Fork)(void)
{
	gt_before_unseen_fork(0);
	need_real();
	if (!gt_real__Fork) {
		gt_after_unseen_fork(-1);
		errno = ENOSYS; /* a C library without it: the program cannot have called it */
		return -1;
	}
	pid_t ret = gt_real__Fork();
	gt_after_unseen_fork(ret);
	return ret;
}

struct child_start {
	int (*fn)(void *);
	void *arg;
};

/* 1 if this process has one thread (field 20 of /proc/self/stat), 0 if
 * more or if that cannot be read. */
static int one_thread(void)
{
	char stat[1024];
	int cancel = gt_cancel_off(); /* open, read and close are cancellation points */
	int fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, stat, sizeof(stat) - 1);
	if (fd >= 0)
		close(fd);
	gt_cancel_restore(cancel);
	if (n <= 0)
		return 0;
	stat[n] = '\0';
	/* The command's name, in parentheses, may hold spaces and parentheses. */
	const char *field = strrchr(stat, ')');
	for (int i = 2; field && i < 20; i++)
		field = strchr(field + 1, ' ');
	return field && field[1] == '1' && field[2] == ' ';
}

/* The child's first function. Its memory is a copy of the parent's:
 * the parent's struct is there, at the same address. */
static int child_start(void *p)
{
	const struct child_start *start = p;
	gt_after_unseen_fork(0);
	int status = start->fn(start->arg);
	/*
	 * glibc ends the child with the exit system call, which ends this
	 * thread only. Alone, that ends the process: _exit does the same,
	 * through its hook, which ends the image. With other threads the
	 * process goes on; the calls so far are written, and its exit
	 * writes the END.
	 */
	if (one_thread())
		_exit(status);
	if (gt_enter()) {
		gt_stream_flush();
		gt_leave();
	}
	return status;
}

GT_EXPORT int GT_HOOK_NAME(clone)(int (*fn)(void *), void *stack, int flags, void *arg, ...)
{
	va_list ap;
	va_start(ap, arg);
	/* Read whether flags ask for them or not, as glibc's clone does. */
	pid_t *parent_tid = va_arg(ap, pid_t *);
	void *tls = va_arg(ap, void *);
	pid_t *child_tid = va_arg(ap, pid_t *);
	va_end(ap);
	gt_need_session();
	need_real();
	if ((flags & (CLONE_VM | CLONE_SETTLS)) || !fn || !stack)
		return gt_real_clone(fn, stack, flags, arg, parent_tid, tls, child_tid);
	struct child_start start = {fn, arg};
	gt_before_unseen_fork((flags & CLONE_VFORK) != 0);
	int ret = gt_real_clone(child_start, stack, flags, &start, parent_tid, tls, child_tid);
	gt_after_unseen_fork(ret); /* the parent's: ret is the child's pid, or -1 */
	return ret;
}
#endif
