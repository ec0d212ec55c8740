/*
 * The plain-words conclusion of one variant against the baseline, from the
 * confidence interval of its paired time ratios (variant / baseline). The
 * one rule: a difference is claimed only when the interval excludes 1 (by
 * more than one part in a million, so that its bound can be printed as
 * different from 1).
 */
#ifndef GT_AB_VERDICT_H
#define GT_AB_VERDICT_H

#include <stddef.h>

#include "stats.h"

enum gt_ab_verdict_kind {
	GT_AB_VERDICT_UNKNOWN = 0, /* no interval (fewer than two paired rounds) */
	GT_AB_VERDICT_SAME,	   /* the interval contains or touches 1 */
	GT_AB_VERDICT_FASTER,	   /* the whole interval is below 1 */
	GT_AB_VERDICT_SLOWER,	   /* the whole interval is above 1 */
};

struct gt_ab_verdict {
	enum gt_ab_verdict_kind kind;
	/* FASTER/SLOWER: how many times faster or slower, and its interval,
	 * all >= 1 (for FASTER the reciprocals of the ratio interval). */
	double factor, factor_low, factor_high;
	/* SAME: the interval's relative half-width, in percent. */
	double noise_pct;
};

/* Classifies ci, which gt_ab_ratio_ci filled (its return value decides
 * UNKNOWN: pass ok = 0 when it returned -1). */
struct gt_ab_verdict gt_ab_verdict_of(const struct gt_ab_ratio_ci *ci, int ok);

/* Stable names of the kinds for the JSON output: "unknown", "same",
 * "faster", "slower". */
const char *gt_ab_verdict_kind_name(enum gt_ab_verdict_kind kind);

/*
 * Writes the sentence into buf (always NUL-terminated, truncated to size):
 *   "mimalloc: 1.31x faster than system (95% CI 1.28–1.34)"
 *   "small: 3.10x slower than default (95% CI 3.02–3.18)"
 *   "jemalloc: no difference from system within noise (±1.5%)"
 *   "x: too few successful rounds to compare with system"
 * Factors get as many decimals (2 to 6) as it takes for the interval's
 * bound nearest 1 not to print as "1.00". Returns buf.
 */
char *gt_ab_verdict_format(char *buf, size_t size, const char *variant, const char *baseline,
			   const struct gt_ab_verdict *v);

#endif /* GT_AB_VERDICT_H */
