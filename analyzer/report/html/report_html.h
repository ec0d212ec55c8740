/*
 * The pieces of the --html report (report_html*.c), shared between its
 * files only: the page itself is written by gt_report_html (report.h).
 * Every function writes to out and never changes the summary.
 */
#ifndef GT_REPORT_HTML_H
#define GT_REPORT_HTML_H

#include <stdio.h>

#include "json.h"
#include "summary.h"

/*
 * Writes s as HTML text or attribute value: & < > " ' escaped, and each
 * byte of an invalid UTF-8 sequence or a control character but tab and
 * line feed as U+FFFD (argv and paths are bytes; the page is UTF-8).
 */
void gt_html_text(FILE *out, const char *s);

/* Writes the image's command line (argv joined by spaces, or exe), escaped. */
void gt_html_command(FILE *out, const struct gt_image *img);

/* The process tree table (parents before children, indented). */
void gt_html_procs(FILE *out, const struct gt_summary *s);

/* Calls, time inside and failed calls by function, summed over the processes. */
void gt_html_functions(FILE *out, const struct gt_summary *s);

/*
 * The pack windows of every process that mapped some, with the window
 * advice and its model's assumptions.
 */
void gt_html_windows(FILE *out, const struct gt_summary *s);

/*
 * The top-sites table: for each of the first `processes` processes (the
 * heaviest; 0 = all), the sites in its top `top` by allocations, by bytes
 * or by temporary allocations (0 = every site), so that sorting by any
 * column shows that column's leaders.
 */
void gt_html_sites(FILE *out, const struct gt_summary *s, size_t top, size_t processes);

/*
 * The "timelines" member of the page's data: one entry per process of
 * s->procs, in that order, with its buckets (timeline.h).
 */
void gt_html_timelines(struct gt_json *j, const struct gt_summary *s);

/*
 * The "phases" member of a process's timeline, if it has phases
 * (phases.h; ph may be NULL): [[from, to, "category:label"], ...], seconds
 * from origin_ns (the timeline's origin), the innermost region of each span.
 */
void gt_html_phase_bands(struct gt_json *j, const struct gt_phases *ph, const struct gt_image *img,
			 uint64_t origin_ns);

struct gt_flame;

/* The "flame" member of the page's data (report_html_flame.c for the encoding). */
void gt_html_flame(struct gt_json *j, const struct gt_flame *f);

#endif /* GT_REPORT_HTML_H */
