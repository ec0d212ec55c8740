/*
 * gt_replay_estimate on made-up rounds: medians, the paired ratio and its
 * interval, the peak, and the predicted change of the run, including the
 * one-round and unknown-CPU cases. No replay runs here.
 */
#include <math.h>

#include "../check.h"
#include "estimate.h"

int main(void)
{
	/* The system allocator against itself: ratio 1, no change. */
	const double sys[] = {2.0, 2.2, 1.8, 2.0, 2.1};
	const double peaks[] = {100, 300, 200, 500, 400};
	struct gt_replay_estimate e;
	gt_replay_estimate(sys, sys, peaks, 5, 10.0, &e);
	CHECK_NEAR(e.seconds, 2.0, 1e-12);
	CHECK_NEAR(e.ratio, 1.0, 1e-12);
	CHECK_NEAR(e.ci_low, 1.0, 1e-12);
	CHECK_NEAR(e.ci_high, 1.0, 1e-12);
	CHECK(e.peak_rss_bytes == 300);
	CHECK_NEAR(e.predicted_run_change, 0.0, 1e-12);

	/* Exactly half as long in every round: ratio 0.5, a point interval;
	 * 1 s saved of 10 s CPU is -10%. */
	const double half[] = {1.0, 1.1, 0.9, 1.0, 1.05};
	gt_replay_estimate(half, sys, peaks, 5, 10.0, &e);
	CHECK_NEAR(e.seconds, 1.0, 1e-12);
	CHECK_NEAR(e.ratio, 0.5, 1e-12);
	CHECK_NEAR(e.ci_low, 0.5, 1e-12);
	CHECK_NEAR(e.ci_high, 0.5, 1e-12);
	CHECK_NEAR(e.predicted_run_change, -0.1, 1e-12);

	/* Ratios that vary: the interval holds the geometric mean. */
	const double mixed[] = {1.0, 2.2, 1.8, 3.0, 2.1};
	gt_replay_estimate(mixed, sys, peaks, 5, 4.0, &e);
	CHECK(e.ci_low < e.ratio && e.ratio < e.ci_high);
	CHECK_NEAR(e.predicted_run_change, (2.1 - 2.0) / 4.0, 1e-12);

	/* One round: a ratio but no interval. */
	gt_replay_estimate(half, sys, peaks, 1, 10.0, &e);
	CHECK_NEAR(e.ratio, 0.5, 1e-12);
	CHECK(isnan(e.ci_low) && isnan(e.ci_high));
	CHECK_NEAR(e.predicted_run_change, -0.1, 1e-12);

	/* No CPU time known: no prediction. */
	gt_replay_estimate(half, sys, peaks, 5, 0, &e);
	CHECK(isnan(e.predicted_run_change));
	return check_result("replay estimate");
}
