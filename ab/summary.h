/*
 * The result per variant, from the measured runs (warm-ups and failed runs
 * left out): location and spread of every metric, and the paired ratios
 * against the baseline (variant / baseline in the same round, for wall
 * time and for CPU time = user + sys) with their interval and verdict.
 */
#ifndef GT_AB_SUMMARY_H
#define GT_AB_SUMMARY_H

#include <stddef.h>

#include "method.h"
#include "sample.h"
#include "stats.h"
#include "verdict.h"

struct gt_ab_metric_summary {
	size_t n;
	double median, mean, stdev, min, max; /* NaN when n (or n-1) is 0 */
};

struct gt_ab_paired {
	double *per_round; /* [rounds]; NaN for a round without both runs */
	size_t rounds;
	struct gt_ab_ratio_ci ci; /* over the rounds that have a ratio */
	int ok;			  /* gt_ab_ratio_ci succeeded */
	struct gt_ab_verdict verdict;
};

struct gt_ab_variant_summary {
	size_t runs_ok, runs_failed; /* measured runs only */
	struct gt_ab_metric_summary m[GT_AB_METRICS];
	/* Against the baseline; not computed (ok = 0, per_round NULL) for the
	 * baseline itself. */
	struct gt_ab_paired wall, cpu;
};

/*
 * Returns a malloc'd array of o->nvariants summaries of res. Release with
 * gt_ab_summaries_free.
 */
struct gt_ab_variant_summary *gt_ab_summarize(const struct gt_ab_options *o,
					      const struct gt_ab_result *res);

/*
 * Whether res measures every variant within o->precision: its interval of
 * paired ratios, in wall and in CPU time, at most that far either side of
 * its geometric mean (a gt_ab_precise_fn, for gt_ab_method_run).
 */
int gt_ab_precise(const struct gt_ab_options *o, const struct gt_ab_result *res);

void gt_ab_summaries_free(struct gt_ab_variant_summary *s, size_t n);

#endif /* GT_AB_SUMMARY_H */
