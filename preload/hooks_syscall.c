/*
 * syscall(): the system calls a program makes through it that change the
 * tracer's course. Setting a seccomp mode (libseccomp does it so) stops
 * the tracer first, as prctl(PR_SET_SECCOMP) does (hooks_sandbox.c).
 * exit_group, execve and execveat are _exit, execve and execveat by other
 * names: without the hooks of those, the calls in the tracer's buffer were
 * lost, and the new program started a run of its own. fork, and a clone
 * without CLONE_VM on the caller's stack and thread pointer, is a fork
 * that runs no pthread_atfork handler: the tracer does what its handlers
 * do around it (lifecycle.h), else the child wrote its parent's unwritten
 * records a second time, under the parent's image and block numbers, and
 * the report refused the whole trace as corrupt. A clone with a stack of
 * its own passes through (its child returns on that stack, where no C
 * function of the tracer's can return to), and so do clone3 and a clone
 * with a thread pointer of its own (CLONE_SETTLS: the tracer's code cannot
 * run in such a child, its thread-local data is elsewhere). The child of
 * a clone3 or of a clone on its own stack is noticed at its first hook by
 * the fork mark (fork_mark.h).
 * Every other call passes through, the tracer's own included (pages.c
 * maps its memory with syscall()).
 *
 * The hook is a stub without a stack frame that jumps to the real
 * syscall() for every other number, so that those calls see the stack as
 * they do untraced. A child made by vfork or clone(CLONE_VM | CLONE_VFORK)
 * through syscall() runs on its parent's stack: behind a hook with a frame,
 * it overwrote the saved state its parent returned through, and the parent
 * crashed. The calls above go to syscall_slow, a C function.
 * Before dlsym has found the real syscall() (the tracer's own calls at its
 * start, a library's constructor that runs before the tracer's first hook),
 * the stub makes the system call itself, still without a frame, as libc's
 * syscall() does.
 *
 * x86-64 only (hooks.def): elsewhere this file is empty.
 */
#if defined(__x86_64__)
#include "interpose.h"
#include "hooks_sandbox.h"
#include "lifecycle.h"

#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The stub's system call failed with -ret: as libc's syscall() does. */
static __attribute__((used)) long raw_syscall_failed(long ret)
{
	errno = (int)-ret;
	return -1;
}

/*
 * The stub's own system call (below), for the calls syscall_slow takes before
 * the real syscall() is known: called as syscall() is. As syscall()
 * returns: -1 with errno set on failure.
 */
long syscall_raw(long number, ...) __attribute__((visibility("hidden")));

/*
 * syscall(2) takes up to six arguments, each a long in a register or on
 * the stack: reading six is what the real one does too.
 */
static __attribute__((used)) long syscall_slow(long number, ...)
{
	va_list ap;
	va_start(ap, number);
	long a[6];
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if ((number == SYS_seccomp && gt_seccomp_enters_sandbox(a[0], a[1], a[2])) ||
	    (number == SYS_prctl && a[0] == PR_SET_SECCOMP && gt_prctl_enters_sandbox(a[1], a[2])))
		gt_before_sandbox();
	if (number == SYS_exit_group)
		_exit((int)a[0]);
	if (number == SYS_execve)
		return execve((const char *)a[0], (char *const *)a[1], (char *const *)a[2]);
	if (number == SYS_execveat) {
		if (!gt_real_execveat)
			gt_resolve_real();
		/* A C library without execveat() passes the call on, untraced
		 * as before: the hook would fail it (hooks_process.c). */
		if (gt_real_execveat)
			return execveat((int)a[0], (const char *)a[1], (char *const *)a[2],
					(char *const *)a[3], (int)a[4]);
	}
	long (*real)(long, ...) = __atomic_load_n(&gt_real_syscall, __ATOMIC_ACQUIRE);
	if (!real)
		real = syscall_raw;
	if (number == SYS_clone || number == SYS_fork) {
		/* The stub sends only a fork's clone here. */
		int parent_waits = number == SYS_clone && (a[0] & CLONE_VFORK);
		gt_before_unseen_fork(parent_waits);
		long ret = real(number, a[0], a[1], a[2], a[3], a[4], a[5]);
		gt_after_unseen_fork(ret);
		return ret;
	}
	return real(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}

#define GT_STR(x)  #x
#define GT_XSTR(x) GT_STR(x)
#define GT_SYSCALL GT_XSTR(GT_HOOK_NAME(syscall))

/* The stub: the arguments are as the caller left them, in registers and on the stack. */
/* clang-format off */
__asm__(".text\n"
	".globl " GT_SYSCALL "\n"
	".type " GT_SYSCALL ", @function\n"
	GT_SYSCALL ":\n"
	"	.cfi_startproc\n"
	"	cmpq $" GT_XSTR(SYS_seccomp) ", %rdi\n"
	"	je 1f\n"
	"	cmpq $" GT_XSTR(SYS_prctl) ", %rdi\n"
	"	je 1f\n"
	"	cmpq $" GT_XSTR(SYS_exit_group) ", %rdi\n"
	"	je 1f\n"
	"	cmpq $" GT_XSTR(SYS_execve) ", %rdi\n"
	"	je 1f\n"
	"	cmpq $" GT_XSTR(SYS_execveat) ", %rdi\n"
	"	je 1f\n"
	"	cmpq $" GT_XSTR(SYS_fork) ", %rdi\n"
	"	je 1f\n"
	/* clone: a fork's (no CLONE_VM, no new stack or thread pointer) only. */
	"	cmpq $" GT_XSTR(SYS_clone) ", %rdi\n"
	"	jne 2f\n"
	"	testq $" GT_XSTR(CLONE_VM) " | " GT_XSTR(CLONE_SETTLS) ", %rsi\n"
	"	jnz 2f\n"
	"	testq %rdx, %rdx\n"
	"	jz 1f\n"
	"2:	movq gt_real_syscall(%rip), %rax\n"
	"	testq %rax, %rax\n"
	"	jz syscall_raw\n"
	"	jmp *%rax\n"
	"1:	jmp syscall_slow\n"
	/* The system call itself: the arguments move one register down, the
	 * sixth comes from the stack. */
	".hidden syscall_raw\n"
	".globl syscall_raw\n"
	"syscall_raw:\n"
	"	movq %rdi, %rax\n"
	"	movq %rsi, %rdi\n"
	"	movq %rdx, %rsi\n"
	"	movq %rcx, %rdx\n"
	"	movq %r8, %r10\n"
	"	movq %r9, %r8\n"
	"	movq 8(%rsp), %r9\n"
	"	syscall\n"
	"	cmpq $-4095, %rax\n"
	"	jae 3f\n"
	"	ret\n"
	"3:	movq %rax, %rdi\n"
	"	jmp raw_syscall_failed\n"
	"	.cfi_endproc\n"
	".size " GT_SYSCALL ", .-" GT_SYSCALL "\n");
/* clang-format on */
#endif
