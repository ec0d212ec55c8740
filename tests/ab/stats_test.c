/*
 * Unit test of gittrace-ab's statistics (ab/stats.c) and conclusions
 * (ab/verdict.c) on inputs whose answers were worked out by hand below, and
 * a property check over many synthetic ratio sets: a difference is claimed
 * exactly when the interval excludes 1, and never printed as "1.00".
 */
#include "../check.h"
#include "stats.h"
#include "verdict.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_sample_stats(void)
{
	/* {3,1,4,1,5}: sum 14, mean 2.8; squared deviations 0.04 + 3.24 +
	 * 1.44 + 3.24 + 4.84 = 12.8; variance 12.8 / 4 = 3.2; sd 1.788854.
	 * Sorted 1 1 3 4 5: median 3. */
	const double x[] = {3, 1, 4, 1, 5};
	CHECK_NEAR(gt_ab_mean(x, 5), 2.8, 1e-12);
	CHECK_NEAR(gt_ab_stdev(x, 5), 1.788854, 1e-6);
	CHECK_NEAR(gt_ab_median(x, 5), 3, 0);
	CHECK_NEAR(gt_ab_min(x, 5), 1, 0);
	CHECK_NEAR(gt_ab_max(x, 5), 5, 0);
	CHECK(x[0] == 3 && x[4] == 5); /* the median sorts a copy */
	/* Even count: the mean of the middle two, (2 + 3) / 2. */
	const double y[] = {10, 3, 1, 2};
	CHECK_NEAR(gt_ab_median(y, 4), 2.5, 0);
	CHECK(isnan(gt_ab_mean(x, 0)));
	CHECK(isnan(gt_ab_median(x, 0)));
	CHECK(isnan(gt_ab_stdev(x, 1)));
}

static void test_t_quantiles(void)
{
	/* Standard table values of t(0.975, df). */
	CHECK_NEAR(gt_ab_t975(1), 12.706, 1e-3);
	CHECK_NEAR(gt_ab_t975(4), 2.776, 1e-3);
	CHECK_NEAR(gt_ab_t975(9), 2.262, 1e-3);
	CHECK_NEAR(gt_ab_t975(30), 2.042, 1e-3);
	/* Beyond the table, the expansion: 40 df 2.0211, 60 df 2.0003,
	 * 120 df 1.9799, 1000 df 1.9623. */
	CHECK_NEAR(gt_ab_t975(40), 2.0211, 1e-4);
	CHECK_NEAR(gt_ab_t975(60), 2.0003, 1e-4);
	CHECK_NEAR(gt_ab_t975(120), 1.9799, 1e-4);
	CHECK_NEAR(gt_ab_t975(1000), 1.9623, 1e-4);
	CHECK(isnan(gt_ab_t975(0)));
	/* Decreasing towards the normal quantile 1.95996, never below it; in
	 * particular no jump where the table hands over to the expansion. */
	for (unsigned df = 1; df < 5000; df++) {
		CHECK(gt_ab_t975(df + 1) < gt_ab_t975(df));
		CHECK(gt_ab_t975(df) > 1.95996);
	}
}

static void test_ratio_ci(void)
{
	/*
	 * Ratios whose logs are -0.10 -0.12 -0.08 -0.10 -0.10: mean -0.1;
	 * squared deviations 0 + 0.0004 + 0.0004 + 0 + 0 = 0.0008; variance
	 * 0.0002; sd 0.0141421; standard error sd / sqrt(5) = 0.00632456;
	 * with t(4) = 2.7764 the half-width is h = 0.0175595. Geometric mean
	 * exp(-0.1) = 0.904837, interval exp(-0.1 -/+ h) = 0.889088 ..
	 * 0.920866, relative half-width exp(h) - 1 = 0.0177146. As a speed-up:
	 * 1/0.904837 = 1.105171, interval 1.085934 .. 1.124749.
	 */
	const double r[] = {exp(-0.10), exp(-0.12), exp(-0.08), exp(-0.10), exp(-0.10)};
	struct gt_ab_ratio_ci ci;
	CHECK(gt_ab_ratio_ci(r, 5, &ci) == 0);
	CHECK(ci.n == 5 && ci.df == 4);
	CHECK_NEAR(ci.t, 2.7764, 1e-4);
	CHECK_NEAR(ci.geomean, 0.904837, 1e-6);
	CHECK_NEAR(ci.low, 0.889088, 1e-5);
	CHECK_NEAR(ci.high, 0.920866, 1e-5);
	CHECK_NEAR(ci.half_width, 0.0177146, 1e-6);

	struct gt_ab_verdict v = gt_ab_verdict_of(&ci, 1);
	CHECK(v.kind == GT_AB_VERDICT_FASTER);
	CHECK_NEAR(v.factor, 1.105171, 1e-5);
	CHECK_NEAR(v.factor_low, 1.085934, 1e-5);
	CHECK_NEAR(v.factor_high, 1.124749, 1e-5);
	char buf[256];
	CHECK_STR(gt_ab_verdict_format(buf, sizeof(buf), "mimalloc", "system", &v),
		  "mimalloc: 1.11x faster than system (95% CI 1.09\u20131.12)");

	/* The same logs with the sign flipped: as much slower. */
	const double s[] = {exp(0.10), exp(0.12), exp(0.08), exp(0.10), exp(0.10)};
	CHECK(gt_ab_ratio_ci(s, 5, &ci) == 0);
	v = gt_ab_verdict_of(&ci, 1);
	CHECK(v.kind == GT_AB_VERDICT_SLOWER);
	CHECK_STR(gt_ab_verdict_format(buf, sizeof(buf), "small", "default", &v),
		  "small: 1.11x slower than default (95% CI 1.09\u20131.12)");

	/*
	 * 0.5 0.5 2 2: logs -/+0.693147, mean 0; sum of squares 4 * 0.480453
	 * = 1.921812; variance 0.640604; sd 0.800377; se 0.400189; t(3) =
	 * 3.1824 gives h = 1.273561, interval 0.279833 .. 3.573554, relative
	 * half-width 2.573554: 257.4%.
	 */
	const double w[] = {0.5, 0.5, 2, 2};
	CHECK(gt_ab_ratio_ci(w, 4, &ci) == 0);
	CHECK_NEAR(ci.geomean, 1, 1e-12);
	CHECK_NEAR(ci.low, 0.279833, 1e-5);
	CHECK_NEAR(ci.high, 3.573554, 1e-5);
	v = gt_ab_verdict_of(&ci, 1);
	CHECK(v.kind == GT_AB_VERDICT_SAME);
	CHECK_STR(gt_ab_verdict_format(buf, sizeof(buf), "jemalloc", "system", &v),
		  "jemalloc: no difference from system within noise (\u00b1257.4%)");

	/* Not computable: one ratio, a zero, a NaN. */
	const double bad[] = {1.0, 0.0, NAN};
	CHECK(gt_ab_ratio_ci(bad, 1, &ci) < 0);
	CHECK(gt_ab_ratio_ci(bad, 2, &ci) < 0);
	CHECK(gt_ab_ratio_ci(bad + 1, 2, &ci) < 0);
	v = gt_ab_verdict_of(&ci, 0);
	CHECK(v.kind == GT_AB_VERDICT_UNKNOWN);
	CHECK_STR(gt_ab_verdict_format(buf, sizeof(buf), "x", "system", &v),
		  "x: too few successful rounds to compare with system");
}

/* A claim whose lower bound is just above 1 shows enough decimals. */
static void test_precision_near_one(void)
{
	struct gt_ab_ratio_ci ci = {5, 4, 2.7764, 1 / 1.004, 1 / 1.008, 1 / 1.0004, 0};
	struct gt_ab_verdict v = gt_ab_verdict_of(&ci, 1);
	CHECK(v.kind == GT_AB_VERDICT_FASTER);
	char buf[256];
	CHECK_STR(gt_ab_verdict_format(buf, sizeof(buf), "a", "b", &v),
		  "a: 1.0040x faster than b (95% CI 1.0004\u20131.0080)");
}

/* splitmix64, only to make synthetic data reproducible. */
static uint64_t rng_state = 42;
static double uniform(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15u);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return (double)((z ^ (z >> 31)) >> 11) / 9007199254740992.0;
}

/*
 * Many synthetic experiments (2 to 12 rounds, a true effect from -3% to
 * +3%, noise from 0.1% to 5%): an interval containing 1 is never a claim,
 * a claim's interval is on its side of 1, and its printed lower bound
 * reads as more than 1 (intervals touching 1 are common here).
 */
static void test_never_claims_inside_noise(void)
{
	char buf[256];
	int claims = 0, same = 0;
	for (int trial = 0; trial < 20000; trial++) {
		size_t n = 2 + (size_t)(uniform() * 11);
		double effect = (uniform() - 0.5) * 0.06, noise = 0.001 + uniform() * 0.05;
		double r[12];
		for (size_t i = 0; i < n; i++)
			r[i] = exp(effect + (uniform() - 0.5) * 2 * noise);
		struct gt_ab_ratio_ci ci;
		if (gt_ab_ratio_ci(r, n, &ci) < 0) {
			CHECK(0);
			continue;
		}
		struct gt_ab_verdict v = gt_ab_verdict_of(&ci, 1);
		gt_ab_verdict_format(buf, sizeof(buf), "v", "b", &v);
		int includes_one = ci.low <= 1 && 1 <= ci.high;
		if (includes_one)
			CHECK(v.kind == GT_AB_VERDICT_SAME);
		if (v.kind == GT_AB_VERDICT_SAME) {
			same++;
			CHECK(strstr(buf, "no difference") && !strstr(buf, "faster") &&
			      !strstr(buf, "slower"));
		} else {
			claims++;
			CHECK(v.kind == GT_AB_VERDICT_FASTER ? ci.high < 1 : ci.low > 1);
			CHECK(strstr(buf, v.kind == GT_AB_VERDICT_FASTER ? "faster" : "slower"));
			const char *lo = strstr(buf, "CI ");
			CHECK(lo && strtod(lo + 3, NULL) > 1);
			CHECK(!strstr(buf, "no difference"));
		}
	}
	/* Both branches must have been exercised for the check to mean much. */
	CHECK(claims > 1000 && same > 1000);
}

int main(void)
{
	test_sample_stats();
	test_t_quantiles();
	test_ratio_ci();
	test_precision_near_one();
	test_never_claims_inside_noise();
	return check_result("statistics and verdicts");
}
