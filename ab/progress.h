/*
 * The progress line on stderr while the comparison runs: "round 2/5
 * mimalloc (run 8 of 18)", rewritten in place. Only when enabled (stderr is
 * a terminal and --no-progress was not given); otherwise every call is a
 * no-op.
 */
#ifndef GT_AB_PROGRESS_H
#define GT_AB_PROGRESS_H

void gt_ab_progress_enable(int on);

/* round 0 is a warm-up. run counts from 1 up to total. */
void gt_ab_progress_show(unsigned round, unsigned rounds, const char *variant, unsigned run,
			 unsigned total);

/* Erases the line, before any other output on stderr. */
void gt_ab_progress_clear(void);

#endif /* GT_AB_PROGRESS_H */
