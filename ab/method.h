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

/* Why the measured rounds stopped where they did. */
enum gt_ab_stop {
	GT_AB_STOP_ROUNDS = 0, /* the rounds asked for (no --precision) */
	GT_AB_STOP_PRECISE,    /* every interval within --precision */
	GT_AB_STOP_MAX_ROUNDS, /* --max-rounds */
	GT_AB_STOP_MAX_SECONDS /* --max-seconds */
};

struct gt_ab_result {
	struct gt_ab_run *runs; /* in the order they ran, warm-ups included */
	size_t nruns;
	unsigned rounds; /* measured rounds run */
	enum gt_ab_stop stop;
	size_t failures;
	int exit_code; /* 0, or the pass-through status of the first failure */
};

/* Whether the rounds run so far measure every variant within o's precision. */
typedef int gt_ab_precise_fn(const struct gt_ab_options *o, const struct gt_ab_result *res);

/*
 * Runs the comparison that o describes and fills *res: o->rounds measured
 * rounds, then with --precision more, one at a time, until precise says
 * so or a limit of o's is reached. Without
 * --keep-going, the first failing run stops everything: its variant, round,
 * status and the end of its stderr are reported and the process exits with
 * the command's status. Dies (exit 1) when the command cannot be started or
 * the template cannot be copied. The scratch directory is removed before
 * returning and on any exit through gt_ab_die.
 */
void gt_ab_method_run(const struct gt_ab_options *o, struct gt_ab_result *res,
		      gt_ab_precise_fn *precise);

/* Stable names of the stops for the JSON output: "rounds", "precise", "max_rounds",
 * "max_seconds". */
const char *gt_ab_stop_name(enum gt_ab_stop stop);

void gt_ab_result_release(struct gt_ab_result *res);

/* "round 2/5" or "warm-up" (rounds: the most there can be): for messages.
 * Returns a static buffer. */
const char *gt_ab_run_label(const struct gt_ab_run *run, unsigned rounds);

#endif /* GT_AB_METHOD_H */
