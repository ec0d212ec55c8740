/*
 * clone(): glibc's function that starts a child running a function on a
 * stack of its own. Without CLONE_VM the child is a fork that runs no
 * pthread_atfork handler: it kept its parent's stream and wrote the
 * parent's unwritten records again, under the parent's image and block
 * numbers (the report refused the trace as corrupt), and if its function
 * returned, glibc ended it with the exit system call, past every hook: its
 * calls were lost without a word. The hook does what the tracer's fork
 * handlers do around the clone (lifecycle.h) and starts the child in
 * child_start, which ends the child's image with _exit when the function
 * returns. A thread, a vfork child (CLONE_VM), or a child with a thread
 * pointer of its own (CLONE_SETTLS: the tracer's thread-local data is not
 * there) passes through.
 *
 * Linux only (hooks.def).
 */
#if defined(__linux__)
#include "interpose.h"
#include "lifecycle.h"

#include <sched.h>
#include <stdarg.h>
#include <unistd.h>

struct child_start {
	int (*fn)(void *);
	void *arg;
};

/* The child's first function. Its memory is a copy of the parent's:
 * the parent's struct is there, at the same address. */
static int child_start(void *p)
{
	const struct child_start *start = p;
	gt_after_unseen_fork(0);
	/* The status the exit system call would have given, through the hook. */
	_exit(start->fn(start->arg));
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
	if (!gt_real_clone)
		gt_resolve_real();
	if (flags & (CLONE_VM | CLONE_SETTLS))
		return gt_real_clone(fn, stack, flags, arg, parent_tid, tls, child_tid);
	struct child_start start = {fn, arg};
	gt_before_unseen_fork((flags & CLONE_VFORK) != 0);
	int ret = gt_real_clone(child_start, stack, flags, &start, parent_tid, tls, child_tid);
	gt_after_unseen_fork(ret); /* the parent's: ret is the child's pid, or -1 */
	return ret;
}
#endif
