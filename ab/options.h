/*
 * The command line of gittrace-ab:
 *   gittrace-ab [options] -- CMD [ARG...]
 * parsed into one struct. Usage errors exit 2, missing allocators exit 1.
 */
#ifndef GT_AB_OPTIONS_H
#define GT_AB_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "variant.h"

struct gt_ab_options {
	struct gt_ab_variant *variants; /* at least two; [0] is the baseline */
	size_t nvariants;
	unsigned rounds; /* measured rounds, >= 2; with precision, the least */
	/*
	 * --precision: after rounds, more rounds until every variant's 95%
	 * interval of its ratio to the baseline, in wall and in CPU time, is
	 * within this much either side (0.03: ±3%); 0: exactly rounds. At
	 * most max_rounds, and none begun after max_seconds (0: no limit).
	 */
	double precision;
	unsigned max_rounds; /* >= rounds; = rounds without precision */
	double max_seconds;
	unsigned warmups;	    /* unmeasured runs per variant before round 1 */
	uint32_t seed;		    /* of the order inside each round */
	const char *template_dir;   /* NULL: run in the current directory */
	const char *workdir_parent; /* NULL: $TMPDIR or /tmp */
	int json;		    /* the result as JSON instead of text */
	int keep_going;		    /* a failing run does not stop the comparison */
	int show_output;	    /* the command writes to our stdout/stderr */
	int progress;		    /* progress lines on stderr (a terminal) */
	char **command;		    /* NULL-terminated argv of CMD */
};

/*
 * Parses argv into *o. Prints the help and exits 0 for -h/--help. argv is
 * kept (command points into it).
 */
void gt_ab_options_parse(struct gt_ab_options *o, int argc, char **argv);

void gt_ab_options_release(struct gt_ab_options *o);

#endif /* GT_AB_OPTIONS_H */
