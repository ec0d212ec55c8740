/*
 * The statistics of an A/B comparison: location and spread of a sample,
 * Student's t quantiles, and the confidence interval of a geometric mean of
 * paired ratios. Pure functions on doubles: no I/O, no global state.
 */
#ifndef GT_AB_STATS_H
#define GT_AB_STATS_H

#include <stddef.h>

/* Arithmetic mean of x[0..n); NaN when n == 0. */
double gt_ab_mean(const double *x, size_t n);

/* Sample standard deviation (divisor n - 1) of x[0..n); NaN when n < 2. */
double gt_ab_stdev(const double *x, size_t n);

/* Median of x[0..n) (mean of the middle two when n is even); NaN when
 * n == 0. x is not modified (a sorted copy is made). */
double gt_ab_median(const double *x, size_t n);

/* Smallest and largest of x[0..n); NaN when n == 0. */
double gt_ab_min(const double *x, size_t n);
double gt_ab_max(const double *x, size_t n);

/*
 * The 0.975 quantile of Student's t distribution with df degrees of
 * freedom: the factor of a two-sided 95% confidence interval. Exact to four
 * decimals (a table up to 30 df, the Cornish-Fisher expansion beyond).
 * NaN when df == 0.
 */
double gt_ab_t975(unsigned df);

/*
 * A 95% confidence interval for the geometric mean of ratios, computed as
 * the t interval of the mean of their logarithms, mapped back with exp().
 * Paired ratios of run times are log-normal rather than normal, and the
 * log makes "2x slower" and "2x faster" symmetric.
 */
struct gt_ab_ratio_ci {
	size_t n;	   /* ratios used */
	unsigned df;	   /* n - 1 */
	double t;	   /* gt_ab_t975(df) */
	double geomean;	   /* exp(mean of logs) */
	double low, high;  /* the interval: exp(mean -/+ t * sd / sqrt(n)) */
	double half_width; /* exp(t * sd / sqrt(n)) - 1: relative half-width */
};

/*
 * Fills *ci from ratios[0..n). Returns 0, or -1 (and leaves *ci with
 * n set and the rest NaN) when there are fewer than two ratios or one of
 * them is not a positive finite number.
 */
int gt_ab_ratio_ci(const double *ratios, size_t n, struct gt_ab_ratio_ci *ci);

#endif /* GT_AB_STATS_H */
