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

/*
 * Reads the trace at path (dies on bad input; a torn tail is a warning)
 * and summarizes it. streaming: summarize each image as it is retired
 * (text, JSON, --diff), else keep the model whole (--html, --folded).
 * keep_sites as gt_summary_init. ph, if not NULL, attributes the calls to
 * trace2 phases and is left in s.phases. replay, if not NULL, adds a
 * replay's predictions to the verdicts (gt_summary_init). Dies if pid >= 0
 * matched no process.
 */
void gt_load(struct gt_loaded *l, const char *path, struct gt_symbolizer *sym, long pid,
	     size_t keep_sites, int streaming, struct gt_phases *ph,
	     const struct gt_replay_input *replay);
void gt_load_release(struct gt_loaded *l);

#endif /* GT_LOAD_H */
