/*
 * The replay's scratch directory (its op streams, a dozen bytes a call:
 * gigabytes for a big trace), removed however the replay ends. A failure
 * ends it with _exit (die.c), a crash or a signal without any clean-up of
 * its own, so the replay runs in a child process and the process that
 * made the directory waits for it, removes the directory and ends as the
 * child did.
 */
#ifndef GT_REPLAY_SCRATCH_H
#define GT_REPLAY_SCRATCH_H

/*
 * Makes a private directory "gittrace-replay.XXXXXX" in $TMPDIR (else
 * /tmp) and returns its path in the child that does the replay. Dies when
 * the directory cannot be made or the child cannot be started. The caller
 * never sees the parent: it exits with the child's status, or dies of the
 * child's signal, once the directory is gone. The signals that end a
 * process, sent to it, are passed on to the child (scratch.c).
 */
const char *gt_replay_scratch_open(void);

#endif /* GT_REPLAY_SCRATCH_H */
