/*
 * The "by caller in the program" table: a process's sites grouped by their
 * function and the traced program's own caller beside it (gt_program_caller),
 * so that deflateInit2_ ← do_compress is one row however many stacks reach
 * it, with those stacks beneath.
 */
#ifndef GT_CALLERS_H
#define GT_CALLERS_H

#include "summary.h"

/* Groups p's sites (in order of allocations) into p->callers. */
void gt_callers_build(struct gt_proc *p);

/*
 * Keeps the first keep rows (all if 0), each with its first keep stacks,
 * and marks in kept[] (one flag per site of p, by gt_site.index) the sites
 * those rows hold.
 */
void gt_callers_cap(struct gt_proc *p, size_t keep, unsigned char *kept);

/* The row's function, and its caller in the program (NULL if none). */
const char *gt_caller_row_function(const struct gt_caller_row *r);
const char *gt_caller_row_caller(const struct gt_caller_row *r);

void gt_callers_release(struct gt_proc *p);

#endif /* GT_CALLERS_H */
