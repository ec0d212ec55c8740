/*
 * syscall(): the system calls a program makes through it that change the
 * tracer's course. Setting a seccomp mode (libseccomp does it so) stops
 * the tracer first, as prctl(PR_SET_SECCOMP) does (hooks_sandbox.c).
 * exit_group and execve are _exit and execve by other names: without the
 * hooks of those, the calls in the tracer's buffer were lost, and the new
 * program started a run of its own. Every other call passes through, the
 * tracer's own included (pages.c maps its memory with syscall()).
 *
 * x86-64 and arm64 only (hooks.def): the hook makes the system call itself
 * until dlsym has found the real syscall().
 */
#include "interpose.h"
#include "sandbox.h"

#include <errno.h>
#include <linux/seccomp.h>
#include <stdarg.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__aarch64__)
/*
 * The system call itself, for the calls that come before the real syscall()
 * is known: the tracer's own (pages.c maps its memory with syscall(), and
 * dlsym, which finds the real one, may allocate). As syscall() returns:
 * -1 with errno set on failure.
 */
static long raw_syscall(long number, const long a[6])
{
	long ret;
#if defined(__x86_64__)
	register long r10 __asm__("r10") = a[3], r8 __asm__("r8") = a[4], r9 __asm__("r9") = a[5];
	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(number), "D"(a[0]), "S"(a[1]), "d"(a[2]), "r"(r10), "r"(r8), "r"(r9)
			 : "rcx", "r11", "memory");
#else
	register long x8 __asm__("x8") = number, x0 __asm__("x0") = a[0], x1 __asm__("x1") = a[1],
			 x2 __asm__("x2") = a[2], x3 __asm__("x3") = a[3], x4 __asm__("x4") = a[4],
			 x5 __asm__("x5") = a[5];
	__asm__ volatile("svc 0"
			 : "+r"(x0)
			 : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4), "r"(x5)
			 : "memory");
	ret = x0;
#endif
	if (ret < 0 && ret > -4096) {
		errno = (int)-ret;
		return -1;
	}
	return ret;
}

/*
 * syscall(2) takes up to six arguments, each a long in a register: reading
 * six is what the real one does too. Only the calls that set a seccomp
 * mode stop the tracer; libseccomp's probes (SECCOMP_GET_ACTION_AVAIL,
 * SECCOMP_GET_NOTIF_SIZES) do not. exit_group and execve through syscall()
 * are _exit and execve by other names: they go through those hooks, which
 * end the image and write what the tracer holds instead of losing it, and
 * pass the run on to the new program.
 */
GT_EXPORT long GT_HOOK_NAME(syscall)(long number, ...)
{
	va_list ap;
	va_start(ap, number);
	long a[6];
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if ((number == SYS_seccomp &&
	     (a[0] == SECCOMP_SET_MODE_STRICT || a[0] == SECCOMP_SET_MODE_FILTER)) ||
	    (number == SYS_prctl && a[0] == PR_SET_SECCOMP))
		gt_before_sandbox();
	if (number == SYS_exit_group)
		_exit((int)a[0]);
	if (number == SYS_execve)
		return execve((const char *)a[0], (char *const *)a[1], (char *const *)a[2]);
	long (*real)(long, ...) = __atomic_load_n(&gt_real_syscall, __ATOMIC_ACQUIRE);
	return real ? real(number, a[0], a[1], a[2], a[3], a[4], a[5]) : raw_syscall(number, a);
}
#endif
