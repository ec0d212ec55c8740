/*
 * The replay's predictions as verdict evidence: reads what `gittrace
 * replay --json` wrote (docs/replay.md) for gittrace-report --replay=FILE.
 * The analyzer never runs an allocator itself; the replay is run before,
 * by the user, because it takes time.
 */
#ifndef GT_REPLAY_INPUT_H
#define GT_REPLAY_INPUT_H

#include <stddef.h>

#include "verdict.h"

struct gt_replay_input_allocator {
	char *name;
	double seconds, ci_low, ci_high; /* NaN where the file has null */
};

struct gt_replay_input_image {
	long pid;
	struct gt_replay_input_allocator *allocators; /* the system's first */
	size_t nallocators;
};

struct gt_replay_input {
	struct gt_replay_input_image *images;
	size_t n;
};

/*
 * Reads path into *in. Dies with one line when the file cannot be read or
 * is not a gittrace replay's JSON (format 1).
 */
void gt_replay_input_read(const char *path, struct gt_replay_input *in);

/*
 * The verdict's replay evidence for the images of pid (< 0: all): per
 * allocator but the system's, in the file's order, the replay time it
 * adds summed over those images (struct gt_replay_delta). A malloc'd
 * array of *n (NULL when none); its names point into in.
 */
struct gt_replay_delta *gt_replay_input_deltas(const struct gt_replay_input *in, long pid,
					       size_t *n);

void gt_replay_input_release(struct gt_replay_input *in);

#endif /* GT_REPLAY_INPUT_H */
