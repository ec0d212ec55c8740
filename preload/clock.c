/*
 * The tracer's clock: what one reading of gt_now_ns() costs, measured once
 * per image so that the tracer's own time can be estimated (stream.c).
 */
#include "clock.h"

uint64_t gt_clock_overhead_ns;

/*
 * The typical cost of one clock reading: the median difference of
 * back-to-back readings (the least one is rarer than what calls see).
 */
void gt_clock_measure_overhead(void)
{
	enum { N = 63 };
	uint64_t d[N];
	for (int i = 0; i < N; i++) {
		uint64_t a = gt_now_ns();
		d[i] = gt_now_ns() - a;
	}
	for (int i = 1; i < N; i++) /* insertion sort: 63 values, once per image */
		for (int j = i; j > 0 && d[j - 1] > d[j]; j--) {
			uint64_t t = d[j];
			d[j] = d[j - 1];
			d[j - 1] = t;
		}
	gt_clock_overhead_ns = d[N / 2];
}
