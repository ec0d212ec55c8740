/*
 * Notices, at the next hook, a fork that none of the tracer's hooks or
 * handlers saw (fork_mark.c): a clone3 made through syscall(), a clone
 * with a stack or a thread pointer of its own, a fork made by a signal
 * handler while its thread was inside a hook. Such a child holds its
 * parent's stream, unwritten records and block numbers included: written
 * again under the parent's image, they made the report refuse the whole
 * trace as corrupt.
 */
#ifndef GT_FORK_MARK_H
#define GT_FORK_MARK_H

/*
 * A word that reads non-zero in every process whose stream is its own,
 * and 0 in a forked child until the tracer has made it an image of its
 * own. A vfork child shares its parent's memory, and reads its parent's
 * mark. Before gt_fork_mark_init, and where the kernel cannot wipe a page
 * at fork, a constant 1: forks are then seen by the hooks only.
 */
extern const int *gt_fork_mark;

static inline int gt_fork_missed(void)
{
	return !__atomic_load_n(gt_fork_mark, __ATOMIC_RELAXED);
}

/* At start-up, before tracing is on. */
void gt_fork_mark_init(void);

/* 1 if the mark does notice forks (the kernel wipes its page in a child). */
int gt_fork_mark_works(void);

/* This process is an image of its own now. */
void gt_fork_mark_set(void);

#endif /* GT_FORK_MARK_H */
