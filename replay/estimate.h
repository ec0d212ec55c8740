/*
 * What the rounds of replays of one image say about one allocator: pure
 * arithmetic on measured numbers, so it is tested without a clock
 * (tests/replay/test_estimate.c).
 */
#ifndef GT_REPLAY_ESTIMATE_H
#define GT_REPLAY_ESTIMATE_H

#include <stddef.h>
#include <stdint.h>

struct gt_replay_estimate {
	double seconds;		 /* median replay time */
	double ratio;		 /* geometric mean of seconds / system's, paired by round */
	double ci_low, ci_high;	 /* its 95% interval (ab/stats.h); NaN with one round */
	uint64_t peak_rss_bytes; /* median of the replays' peaks */
	/* (seconds - system's seconds) / the image's CPU time: the share of
	 * the whole run this allocator would add (negative: save). NaN when
	 * the CPU time is unknown. */
	double predicted_run_change;
};

/*
 * From rounds replays of an allocator (seconds[i], peaks[i]) and of the
 * system allocator in the same rounds (system[i]), and the image's CPU
 * seconds (0: unknown). rounds >= 1; times > 0.
 */
void gt_replay_estimate(const double *seconds, const double *system, const double *peaks,
			size_t rounds, double cpu_seconds, struct gt_replay_estimate *e);

#endif /* GT_REPLAY_ESTIMATE_H */
