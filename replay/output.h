/*
 * What gittrace-replay prints: text for people, JSON (docs/replay.md) for
 * tools and for `gittrace-report --replay=FILE`.
 */
#ifndef GT_REPLAY_OUTPUT_H
#define GT_REPLAY_OUTPUT_H

#include <stdio.h>

#include "measure.h"

struct gt_replay_output {
	const char *trace;
	const struct gt_replay_allocator *allocs; /* system's first */
	size_t nalloc, rounds;
	const struct gt_replay_result *results; /* one per image */
	size_t n;
};

void gt_replay_print_text(FILE *out, const struct gt_replay_output *o);

/* {"gittrace_replay": 1, "images": [...]}, one line. */
void gt_replay_print_json(FILE *out, const struct gt_replay_output *o);

#endif /* GT_REPLAY_OUTPUT_H */
