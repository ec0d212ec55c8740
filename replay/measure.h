/*
 * The replays of one image: every allocator, round after round, with the
 * allocators' order rotated each round so that none always runs first
 * (a warm page cache, a CPU's frequency), and what they add up to.
 */
#ifndef GT_REPLAY_MEASURE_H
#define GT_REPLAY_MEASURE_H

#include <stddef.h>

#include "estimate.h"
#include "extract.h"
#include "run.h"

struct gt_replay_allocator {
	const char *name;    /* as given: system, mimalloc, jemalloc or a path */
	const char *preload; /* the library to preload; NULL for system */
};

struct gt_replay_result {
	const struct gt_replay_image *img;
	uint64_t calls[GT_REPLAY_FNS];	/* the calls every replay made */
	struct gt_replay_estimate *est; /* per allocator, system's first */
};

/*
 * Replays img rounds times under each of allocs[0..nalloc) (allocs[0] is
 * the system allocator) and fills *res (release it with
 * gt_replay_result_release). ORs into emulated[a] the functions allocator
 * a lacks that the replays called (run.h). Dies when a replay fails or
 * makes other calls than the op stream holds.
 */
void gt_replay_measure(const struct gt_replay_image *img, const char *runner,
		       const struct gt_replay_allocator *allocs, size_t nalloc, size_t rounds,
		       struct gt_replay_result *res, unsigned *emulated);

void gt_replay_result_release(struct gt_replay_result *res);

#endif /* GT_REPLAY_MEASURE_H */
