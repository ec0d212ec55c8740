/*
 * Progress line. See progress.h.
 */
#define _POSIX_C_SOURCE 200809L
#include "progress.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void gt_progress_init(struct gt_progress *p)
{
	p->enabled = isatty(STDERR_FILENO);
	p->next = now() + 0.5;
	p->shown = 0;
}

void gt_progress_update(struct gt_progress *p, uint64_t pos, uint64_t size, uint64_t events)
{
	if (!p->enabled)
		return;
	double t = now();
	if (t < p->next)
		return;
	p->next = t + 0.5;
	if (size)
		fprintf(stderr, "\rgittrace-report: %3.0f%% read, %llu events", 100.0 * pos / size,
			(unsigned long long)events);
	else
		fprintf(stderr, "\rgittrace-report: %llu events", (unsigned long long)events);
	p->shown = 1;
}

void gt_progress_done(struct gt_progress *p)
{
	if (p->shown)
		fprintf(stderr, "\r%60s\r", "");
	p->shown = 0;
}
