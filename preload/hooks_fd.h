/* The program's view of the tracer's descriptors (hooks_fd.c). Linux only. */
#ifndef GT_HOOKS_FD_H
#define GT_HOOKS_FD_H

/*
 * The process enters a seccomp sandbox, which may kill it for the fstat
 * that tells the tracer's descriptors: they are no longer hidden.
 */
void gt_fds_in_sandbox(void);

#endif /* GT_HOOKS_FD_H */
