/*
 * The process tree of a summary: which process started which. The trace
 * says so for a fork (its parent image's id); an exec continues the image
 * of its pid that ended by exec; anything else hangs under the latest
 * image of its parent pid that started before it.
 */
#ifndef GT_TREE_H
#define GT_TREE_H

#include "summary.h"

/*
 * For each process of s (by its index in s->procs), the index of the one
 * that started it, -1 if none: an array of s->n the caller frees. Found
 * through the images of one id or pid only, not a square of the processes.
 */
long *gt_summary_parents(const struct gt_summary *s);

/*
 * How many processes ended by an exec (END reason exec) that no image
 * followed, given gt_summary_parents: the program they exec'd ran untraced.
 */
size_t gt_summary_untraced_execs(const struct gt_summary *s, const long *parent);

/* The indexes of s->procs in the order the processes started (parents
 * first): an array of s->n the caller frees. */
size_t *gt_summary_by_start(const struct gt_summary *s);

#endif /* GT_TREE_H */
