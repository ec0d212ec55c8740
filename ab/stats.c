/* Sample statistics, t quantiles and ratio intervals (see stats.h). */
#include "stats.h"
#include "die.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double gt_ab_mean(const double *x, size_t n)
{
	if (!n)
		return NAN;
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += x[i];
	return sum / (double)n;
}

double gt_ab_stdev(const double *x, size_t n)
{
	if (n < 2)
		return NAN;
	double m = gt_ab_mean(x, n), ss = 0;
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - m) * (x[i] - m);
	return sqrt(ss / (double)(n - 1));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double gt_ab_median(const double *x, size_t n)
{
	if (!n)
		return NAN;
	double *s = gt_ab_xreallocarray(NULL, n, sizeof(*s));
	memcpy(s, x, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	double m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	free(s);
	return m;
}

double gt_ab_min(const double *x, size_t n)
{
	if (!n)
		return NAN;
	double m = x[0];
	for (size_t i = 1; i < n; i++)
		if (x[i] < m)
			m = x[i];
	return m;
}

double gt_ab_max(const double *x, size_t n)
{
	if (!n)
		return NAN;
	double m = x[0];
	for (size_t i = 1; i < n; i++)
		if (x[i] > m)
			m = x[i];
	return m;
}

/* t(0.975, df) for df = 1..30, from the standard tables. */
static const double t975_table[30] = {
	12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281,
	2.2010,	 2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860,
	2.0796,	 2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423,
};

double gt_ab_t975(unsigned df)
{
	if (!df)
		return NAN;
	if (df <= 30)
		return t975_table[df - 1];
	/*
	 * Cornish-Fisher expansion of t around the normal quantile z
	 * (Abramowitz & Stegun 26.7.5); beyond 30 df its error is below 1e-5.
	 */
	const double z = 1.959963984540054, v = df;
	double z2 = z * z, z3 = z2 * z, z5 = z3 * z2, z7 = z5 * z2, z9 = z7 * z2;
	double g1 = (z3 + z) / 4;
	double g2 = (5 * z5 + 16 * z3 + 3 * z) / 96;
	double g3 = (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / 384;
	double g4 = (79 * z9 + 776 * z7 + 1482 * z5 - 1920 * z3 - 945 * z) / 92160;
	return z + g1 / v + g2 / (v * v) + g3 / (v * v * v) + g4 / (v * v * v * v);
}

int gt_ab_ratio_ci(const double *ratios, size_t n, struct gt_ab_ratio_ci *ci)
{
	ci->n = n;
	ci->df = 0;
	ci->t = ci->geomean = ci->low = ci->high = ci->half_width = NAN;
	if (n < 2)
		return -1;
	double *logs = gt_ab_xreallocarray(NULL, n, sizeof(*logs));
	for (size_t i = 0; i < n; i++) {
		if (!(ratios[i] > 0) || !isfinite(ratios[i])) {
			free(logs);
			return -1;
		}
		logs[i] = log(ratios[i]);
	}
	double m = gt_ab_mean(logs, n), sd = gt_ab_stdev(logs, n);
	free(logs);
	ci->df = (unsigned)(n - 1);
	ci->t = gt_ab_t975(ci->df);
	double h = ci->t * sd / sqrt((double)n);
	ci->geomean = exp(m);
	ci->low = exp(m - h);
	ci->high = exp(m + h);
	ci->half_width = exp(h) - 1;
	return 0;
}
