/*
 * A trace read into its model and summary: the read loop the report modes
 * and --diff share (main.c's --dump steps through records itself).
 */
#ifndef GT_LOAD_H
#define GT_LOAD_H

#include "model.h"
#include "phases.h"
#include "summary.h"

struct gt_loaded {
	struct gt_model *m;
	struct gt_summary s;
};

/* What a report needs of the trace beyond the summary. */
struct gt_load_options {
	long pid;	   /* only this pid's images (dies if none); < 0: all */
	size_t keep_sites; /* as gt_summary_init */
	int timelines;	   /* keep each image's timeline (timeline.h): the HTML page's */
	/* If not NULL, sees each process with its stacks (gt_summary_on_stacks). */
	gt_proc_stacks_hook *stacks_hook;
	void *stacks_ctx;
	struct gt_phases *phases;	      /* attribute calls to trace2 phases; NULL: no */
	const struct gt_replay_input *replay; /* as gt_summary_init; NULL: none */
	int look_up_config;		      /* gt_summary_look_up_config */
};

/*
 * Reads the trace at path (dies on bad input; a torn tail is a warning)
 * and summarizes it as o says, each image as it is retired: memory follows
 * the processes running at a time. The phases, if any, are left in
 * s.phases.
 */
void gt_load(struct gt_loaded *l, const char *path, struct gt_symbolizer *sym,
	     const struct gt_load_options *o);
void gt_load_release(struct gt_loaded *l);

#endif /* GT_LOAD_H */
