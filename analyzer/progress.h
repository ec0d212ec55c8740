/*
 * The progress line on stderr for long traces: only when stderr is a
 * terminal, at most every half second, rewritten in place with \r.
 */
#ifndef GT_PROGRESS_H
#define GT_PROGRESS_H

#include <stdint.h>

struct gt_progress {
	int enabled;
	double next; /* monotonic seconds of the next update */
};

void gt_progress_init(struct gt_progress *p);
/* Cheap to call per block: reads the clock, prints when due. */
void gt_progress_update(struct gt_progress *p, uint64_t pos, uint64_t size, uint64_t events);
/* Clears the line if one was shown. */
void gt_progress_done(void);

#endif /* GT_PROGRESS_H */
