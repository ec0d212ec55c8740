/* The progress line (see progress.h). */
#include "progress.h"

#include <stdio.h>

static int enabled, shown;

void gt_ab_progress_enable(int on)
{
	enabled = on;
}

void gt_ab_progress_show(unsigned round, unsigned rounds, const char *variant, unsigned run,
			 unsigned total)
{
	if (!enabled)
		return;
	if (round)
		fprintf(stderr, "\r\033[Kgittrace-ab: round %u/%u %s (run %u of %u)", round, rounds,
			variant, run, total);
	else
		fprintf(stderr, "\r\033[Kgittrace-ab: warm-up %s (run %u of %u)", variant, run,
			total);
	fflush(stderr);
	shown = 1;
}

void gt_ab_progress_clear(void)
{
	if (!enabled || !shown)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	shown = 0;
}
