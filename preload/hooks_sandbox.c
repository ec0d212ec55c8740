/*
 * A program that enters a seccomp sandbox may forbid the system calls the
 * tracer writes its trace with (pwrite, fstat, getrlimit, sigprocmask),
 * and a filter that kills on a forbidden call would kill the program at
 * the tracer's next block. So before prctl(PR_SET_SECCOMP) the tracer
 * writes what it holds and stops, with a warning; the programs the process
 * starts from then on, which inherit the filter, are not traced.
 *
 * The seccomp system call made with syscall() (libseccomp makes it so) is
 * not seen: hooking syscall() would put a hook in front of the tracer's own
 * calls of it. README, "How the capture works".
 */
#include "interpose.h"
#include "lifecycle.h"
#include "session.h"
#include "stream.h"

#include <stdarg.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static void before_sandbox(void)
{
	if (!gt_enter())
		return;
	gt_stream_give_back("the program enters a seccomp sandbox, which may forbid the "
			    "tracer's writes: tracing stopped; the trace ends here");
	gt_session_off();
	gt_leave();
}

/* prctl's arguments are four unsigned longs after the option (prctl(2)). */
GT_EXPORT int GT_HOOK_NAME(prctl)(int option, ...)
{
	va_list ap;
	va_start(ap, option);
	unsigned long arg2 = va_arg(ap, unsigned long), arg3 = va_arg(ap, unsigned long),
		      arg4 = va_arg(ap, unsigned long), arg5 = va_arg(ap, unsigned long);
	va_end(ap);
	if (option == PR_SET_SECCOMP)
		before_sandbox();
	if (!gt_real_prctl)
		gt_resolve_real();
	return gt_real_prctl ? gt_real_prctl(option, arg2, arg3, arg4, arg5)
			     : (int)syscall(SYS_prctl, option, arg2, arg3, arg4, arg5);
}
