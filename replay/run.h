/*
 * Runs the replayer (gittrace-replay-run) on one op stream under one
 * allocator and reads what it measured. The replayer gets LD_PRELOAD set to
 * exactly that allocator (unset for the system allocator), so a preload of
 * the caller's, gittrace's own included, never joins the replay.
 */
#ifndef GT_REPLAY_RUN_H
#define GT_REPLAY_RUN_H

#include <stdint.h>

#include "ops.h"

/* What one replay measured (runner.c). */
struct gt_replay_run {
	double seconds;
	uint64_t peak_rss_bytes;
	uint64_t calls[GT_REPLAY_FNS]; /* calls it made per function */
	unsigned emulated;	       /* 1 << fn: called, but the allocator lacks it (runner.c) */
};

/*
 * The replayer next to this program (the build tree, or an install that
 * put both in one directory), else where `make install` put it. malloc'd.
 */
char *gt_replay_runner_path(void);

/*
 * Runs runner on the op stream ops with preload (NULL: the system
 * allocator) and fills *out. Dies with one line when it cannot be started,
 * fails, or prints something else than runner.c promises.
 */
void gt_replay_run(const char *runner, const char *preload, const char *ops,
		   struct gt_replay_run *out);

#endif /* GT_REPLAY_RUN_H */
