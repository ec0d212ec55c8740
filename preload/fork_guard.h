/*
 * Keeps fork out while a thread is inside a library that takes locks of
 * its own: libunwind, and libdw reading frame rules (fork_guard.c).
 */
#ifndef GT_FORK_GUARD_H
#define GT_FORK_GUARD_H

/* Registers the fork handlers; once, at start-up. */
void gt_fork_guard_init(void);

/*
 * Around a fork that runs no pthread_atfork handler (_Fork, clone:
 * lifecycle.h), what the handlers do: in_child is 1 in the
 * child, 0 in the parent (whether the fork failed or not). If the parent
 * waits for the child (CLONE_VFORK), the guard is not taken: a thread that
 * the child waits for could need it meanwhile (a deadlock), and the child
 * records without stacks instead.
 */
void gt_fork_guard_before_unseen_fork(int parent_waits);
void gt_fork_guard_after_unseen_fork(int in_child);

/*
 * In the child of a fork that ran no handler and no hook saw (fork_mark.h):
 * other_threads is 1 if the parent may have had other threads, which may
 * have held those libraries' locks at the fork.
 */
void gt_fork_guard_after_missed_fork(int other_threads);

/* Around every call into those libraries. */
void gt_fork_guard_enter(void);
void gt_fork_guard_leave(void);
/* Whether this thread is between the two (it may hold their locks, and the guard). */
int gt_fork_guard_entered(void);

/*
 * In a child forked while this could not be made sure (fork from a signal
 * handler that interrupted the guarded call in the same thread): a lock in
 * those libraries may be held forever, so they must not be called.
 */
int gt_fork_guard_lost(void);

#endif /* GT_FORK_GUARD_H */
