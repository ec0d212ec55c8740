/* The tracer's clock, read around every real call (clock.c). */
#ifndef GT_CLOCK_H
#define GT_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t gt_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The cost of one gt_now_ns(), measured at image start (image.c). */
extern uint64_t gt_clock_overhead_ns;
/* Measures it (63 pairs of readings) and stores it in gt_clock_overhead_ns. */
void gt_clock_measure_overhead(void);

#endif /* GT_CLOCK_H */
