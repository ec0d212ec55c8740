/* Conclusions from ratio intervals, in words (see verdict.h). */
#include "verdict.h"

#include <math.h>
#include <stdio.h>

/*
 * An interval that misses 1 by less than this still counts as containing
 * it: such a claim could not be printed without its bound reading "1.000000"
 * (see decimals_for), and it would not be worth making.
 */
#define TOUCH 1e-6

struct gt_ab_verdict gt_ab_verdict_of(const struct gt_ab_ratio_ci *ci, int ok)
{
	struct gt_ab_verdict v = {GT_AB_VERDICT_UNKNOWN, NAN, NAN, NAN, NAN};
	if (!ok || !(ci->low > 0) || !(ci->high >= ci->low))
		return v;
	if (1 / ci->high > 1 + TOUCH) {
		v.kind = GT_AB_VERDICT_FASTER;
		v.factor = 1 / ci->geomean;
		v.factor_low = 1 / ci->high;
		v.factor_high = 1 / ci->low;
	} else if (ci->low > 1 + TOUCH) {
		v.kind = GT_AB_VERDICT_SLOWER;
		v.factor = ci->geomean;
		v.factor_low = ci->low;
		v.factor_high = ci->high;
	} else {
		v.kind = GT_AB_VERDICT_SAME;
		v.noise_pct = 100 * ci->half_width;
	}
	return v;
}

const char *gt_ab_verdict_kind_name(enum gt_ab_verdict_kind kind)
{
	switch (kind) {
	case GT_AB_VERDICT_SAME:
		return "same";
	case GT_AB_VERDICT_FASTER:
		return "faster";
	case GT_AB_VERDICT_SLOWER:
		return "slower";
	case GT_AB_VERDICT_UNKNOWN:
		break;
	}
	return "unknown";
}

/*
 * Decimals for a claimed factor whose lower bound is just above 1: "1.00"
 * next to "faster" would read as no difference at all. Six always suffice
 * for a bound above 1 + TOUCH.
 */
static int decimals_for(double low)
{
	int d = 2;
	while (d < 6) {
		double scale = pow(10, d);
		if (round(low * scale) / scale > 1)
			break;
		d++;
	}
	return d;
}

char *gt_ab_verdict_format(char *buf, size_t size, const char *variant, const char *baseline,
			   const struct gt_ab_verdict *v)
{
	int d;
	switch (v->kind) {
	case GT_AB_VERDICT_FASTER:
	case GT_AB_VERDICT_SLOWER:
		d = decimals_for(v->factor_low);
		snprintf(buf, size, "%s: %.*fx %s than %s (95%% CI %.*f\u2013%.*f)", variant, d,
			 v->factor, v->kind == GT_AB_VERDICT_FASTER ? "faster" : "slower", baseline,
			 d, v->factor_low, d, v->factor_high);
		break;
	case GT_AB_VERDICT_SAME:
		snprintf(buf, size, "%s: no difference from %s within noise (\u00b1%.1f%%)",
			 variant, baseline, v->noise_pct);
		break;
	case GT_AB_VERDICT_UNKNOWN:
		snprintf(buf, size, "%s: too few successful rounds to compare with %s", variant,
			 baseline);
		break;
	}
	return buf;
}
