/*
 * Progress line. See progress.h.
 */
#define _POSIX_C_SOURCE 200809L
#include "progress.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "die.h"

/* The line on screen, for clearing it before a warning (one per process). */
static int line_shown;

static void clear_line(void)
{
	if (line_shown)
		fprintf(stderr, "\r%70s\r", "");
	line_shown = 0;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void gt_progress_init(struct gt_progress *p)
{
	p->enabled = isatty(STDERR_FILENO);
	if (p->enabled)
		gt_set_before_message(clear_line);
	p->next = now() + 0.5;
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
	line_shown = 1;
}

void gt_progress_done(void)
{
	clear_line();
}
