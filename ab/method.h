/*
 * The method: warm-up runs, then rounds in which every variant runs once in
 * a seeded random order, each run (with --template) in a fresh copy of the
 * template made before it and not timed, with the same working directory,
 * the same standard streams and the same environment except for what the
 * variant changes.
 */
#ifndef GT_AB_METHOD_H
#define GT_AB_METHOD_H

#include <stddef.h>

#include "options.h"
#include "sample.h"

struct gt_ab_run {
	unsigned round; /* 0 for a warm-up, else 1..rounds */
	size_t variant; /* index into the options' variants */
	struct gt_ab_sample s;
	int failed; /* the command did not exit with status 0 */
};

struct gt_ab_result {
	struct gt_ab_run *runs; /* in the order they ran, warm-ups included */
	size_t nruns;
	size_t failures;
	int exit_code; /* 0, or the pass-through status of the first failure */
};

/*
 * Runs the comparison that o describes and fills *res. Without
 * --keep-going, the first failing run stops everything: its variant, round,
 * status and the end of its stderr are reported and the process exits with
 * the command's status. Dies (exit 1) when the command cannot be started or
 * the template cannot be copied. The scratch directory is removed before
 * returning and on any exit through gt_ab_die.
 */
void gt_ab_method_run(const struct gt_ab_options *o, struct gt_ab_result *res);

void gt_ab_result_release(struct gt_ab_result *res);

/* "round 2/5" or "warm-up": for messages. Returns a static buffer. */
const char *gt_ab_run_label(const struct gt_ab_run *run, unsigned rounds);

#endif /* GT_AB_METHOD_H */
