/* The tracer's clock, read around every real call (clock.c). */
#ifndef GT_CLOCK_H
#define GT_CLOCK_H

#include <stdint.h>
#include <sys/time.h>
#include <time.h>

static inline uint64_t gt_timespec_ns(struct timespec ts)
{
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* A timeval, as getrusage gives CPU time, in ns. */
static inline uint64_t gt_timeval_ns(struct timeval tv)
{
	return (uint64_t)tv.tv_sec * 1000000000u + (uint64_t)tv.tv_usec * 1000u;
}

static inline uint64_t gt_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return gt_timespec_ns(ts);
}

/* The cost of one gt_now_ns(), measured at image start (clock.c, for the IMAGE record). */
extern uint64_t gt_clock_overhead_ns;
/* Measures it (63 pairs of readings) and stores it in gt_clock_overhead_ns. */
void gt_clock_measure_overhead(void);

#endif /* GT_CLOCK_H */
