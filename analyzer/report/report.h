/*
 * The report writers: human text (80 columns, verdict first), JSON (the
 * contract in docs/report-schema.json), folded stacks and an HTML page.
 * Each formats a built gt_summary; none of them changes it.
 */
#ifndef GT_REPORT_H
#define GT_REPORT_H

#include <stdio.h>

#include "summary.h"

/* Bumped whenever the JSON contract changes (docs/report.md). */
#define GT_REPORT_JSON_VERSION 1

/* top: sites to list per process (0 = all); processes: the heaviest
 * processes listed and given a section (0 = all). */
void gt_report_text(FILE *out, const struct gt_summary *s, size_t top, size_t processes);
void gt_report_json(FILE *out, const struct gt_summary *s, size_t top);
/* One process's object of the JSON report, as gt_report_json writes it (--diff reuses it). */
struct gt_json;
void gt_report_json_process(struct gt_json *j, const struct gt_summary *s, const struct gt_proc *p,
			    size_t top);

/*
 * --folded (report_folded.c): one line per allocating stack,
 * "<pid>_<argv0>_<argv1>;outermost;…;innermost weight", weight =
 * allocations or (by_bytes) bytes. Allocator frames are dropped, wrappers
 * kept (a flame graph shows who went through them). Written process by
 * process as the trace is read (gt_folded_add takes what a
 * gt_proc_stacks_hook sees) to a temporary file, printed once the trace
 * proved good: bad input prints nothing but its one line. gt_folded_new
 * and gt_folded_print die if the temporary file cannot be used; the
 * caller checks out for write errors.
 */
struct gt_folded;
struct gt_folded *gt_folded_new(int by_bytes);
void gt_folded_add(struct gt_folded *f, const struct gt_proc *p);
void gt_folded_print(struct gt_folded *f, FILE *out);
void gt_folded_free(struct gt_folded *f);

/*
 * The HTML page's flame graph (report_html_flame.c): the allocating stacks
 * --folded writes, merged into one tree, weighted by allocations, bytes
 * and temporary allocations, built process by process as the trace is
 * read: gt_flame_add takes each process a gt_proc_stacks_hook sees
 * (gt_summary_on_stacks), while its stacks are there.
 */
struct gt_flame;
struct gt_flame *gt_flame_new(void);
void gt_flame_add(struct gt_flame *f, const struct gt_proc *p);
void gt_flame_free(struct gt_flame *f);

/*
 * One self-contained HTML page (report_html.c): verdict, process tree,
 * per-process timelines (timeline.h; the model must keep them), the
 * flame graph f, and the top sites (for each of the heaviest
 * `processes` processes, its top `top` by allocations, bytes and
 * temporary allocations; 0 = all). Dies if a temporary file cannot be
 * used; the caller checks out for write errors.
 */
void gt_report_html(FILE *out, const struct gt_summary *s, const struct gt_flame *f, size_t top,
		    size_t processes);

#endif /* GT_REPORT_H */
