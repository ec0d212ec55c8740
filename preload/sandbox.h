/* Stopping before a seccomp sandbox (hooks_sandbox.c). */
#ifndef GT_SANDBOX_H
#define GT_SANDBOX_H

/*
 * The program is about to set a seccomp mode: writes what the tracer holds
 * and stops tracing, with one warning, and keeps the run's later programs
 * untraced. errno is kept.
 */
void gt_before_sandbox(void);

#endif /* GT_SANDBOX_H */
