/* Stopping before a seccomp sandbox (hooks_sandbox.c). */
#ifndef GT_HOOKS_SANDBOX_H
#define GT_HOOKS_SANDBOX_H

/*
 * Whether the call installs a seccomp mode: prctl(PR_SET_SECCOMP, mode,
 * arg), or the seccomp system call's op, flags and arg. Strict mode takes
 * no flags and no argument, a filter its program. libseccomp's questions
 * to the kernel before it loads a filter (SECCOMP_GET_ACTION_AVAIL, and
 * either mode with a NULL argument, which fails) install nothing.
 */
int gt_prctl_enters_sandbox(unsigned long mode, unsigned long arg);
int gt_seccomp_enters_sandbox(unsigned long op, unsigned long flags, unsigned long arg);

/*
 * The program is about to install a seccomp mode: writes what the tracer
 * holds and stops tracing, with one warning, and keeps the run's later
 * programs untraced. In a process that shares the tracer's state with its
 * owner (a vfork child, a child cloned through syscall()), it only keeps
 * that process's programs untraced. errno is kept.
 */
void gt_before_sandbox(void);

#endif /* GT_HOOKS_SANDBOX_H */
