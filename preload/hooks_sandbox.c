/*
 * A program that enters a seccomp sandbox may forbid the system calls the
 * tracer writes its trace with (write, fstat, prlimit64, rt_sigprocmask),
 * and a filter that kills on a forbidden call would kill the program at
 * the tracer's next block. So before the program sets a seccomp mode, with
 * prctl(PR_SET_SECCOMP) or the seccomp system call (libseccomp makes it
 * through syscall()), the tracer writes what it holds and stops, with a
 * warning; the programs the process starts from then on, which inherit the
 * filter, are not traced. README, "How the capture works". The seccomp
 * system call comes through the syscall() hook (hooks_syscall.c).
 */
#include "hooks_sandbox.h"

#include "hooks_fd.h"
#include "hooks_signal.h"
#include "interpose.h"
#include "lifecycle.h"
#include "session.h"
#include "stream.h"

#include <errno.h>
#include <linux/seccomp.h>
#include <stdarg.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int gt_prctl_enters_sandbox(unsigned long mode, unsigned long arg)
{
	return mode == SECCOMP_MODE_STRICT || (mode == SECCOMP_MODE_FILTER && arg);
}

int gt_seccomp_enters_sandbox(unsigned long op, unsigned long flags, unsigned long arg)
{
	return (op == SECCOMP_SET_MODE_STRICT && !flags && !arg) ||
	       (op == SECCOMP_SET_MODE_FILTER && arg);
}

void gt_before_sandbox(void)
{
	int saved_errno = errno;
	gt_fds_in_sandbox();
	gt_signals_give_back();
	/*
	 * Tracing, but not the stream's process (a vfork child, a child cloned
	 * through syscall()): the owner's records are not this one's to write.
	 * Before tracing started, gt_enter starts it, to stop it for good.
	 */
	if (__atomic_load_n(&gt_state, __ATOMIC_ACQUIRE) == GT_STATE_ON && !gt_stream_is_ours()) {
		gt_session_off_in_this_process();
		errno = saved_errno;
		return;
	}
	if (!gt_enter())
		return;
	gt_stream_give_back("the program enters a seccomp sandbox, which may forbid the "
			    "tracer's writes: tracing stopped; the trace ends here");
	gt_session_off();
	gt_leave();
	errno = saved_errno;
}

/* prctl's arguments are four unsigned longs after the option (prctl(2)). */
GT_EXPORT int GT_HOOK_NAME(prctl)(int option, ...)
{
	va_list ap;
	va_start(ap, option);
	unsigned long arg2 = va_arg(ap, unsigned long), arg3 = va_arg(ap, unsigned long),
		      arg4 = va_arg(ap, unsigned long), arg5 = va_arg(ap, unsigned long);
	va_end(ap);
	if (option == PR_SET_SECCOMP && gt_prctl_enters_sandbox(arg2, arg3))
		gt_before_sandbox();
	if (!gt_real_prctl)
		gt_resolve_real();
	return gt_real_prctl ? gt_real_prctl(option, arg2, arg3, arg4, arg5)
			     : (int)syscall(SYS_prctl, option, arg2, arg3, arg4, arg5);
}
