/* One allocator's numbers from its rounds (see estimate.h). */
#include "estimate.h"

#include <math.h>
#include <stdlib.h>

#include "die.h"
#include "ab/stats.h"

void gt_replay_estimate(const double *seconds, const double *system, const double *peaks,
			size_t rounds, double cpu_seconds, struct gt_replay_estimate *e)
{
	double *ratios = gt_xcalloc(rounds, sizeof(*ratios));
	for (size_t i = 0; i < rounds; i++)
		ratios[i] = seconds[i] / system[i];
	struct gt_ab_ratio_ci ci;
	if (gt_ab_ratio_ci(ratios, rounds, &ci) == 0) {
		e->ratio = ci.geomean;
		e->ci_low = ci.low;
		e->ci_high = ci.high;
	} else {
		/* One round (or a zero time): no interval. */
		e->ratio = gt_ab_median(ratios, rounds);
		e->ci_low = e->ci_high = NAN;
	}
	free(ratios);
	e->seconds = gt_ab_median(seconds, rounds);
	e->peak_rss_bytes = (uint64_t)gt_ab_median(peaks, rounds);
	e->predicted_run_change =
		cpu_seconds > 0 ? (e->seconds - gt_ab_median(system, rounds)) / cpu_seconds : NAN;
}
