/*
 * The phase tables of the text and JSON reports (phases.h): per process,
 * its calls, allocations, bytes, temporary allocations, allocator time and
 * map calls by innermost trace2 region.
 */
#ifndef GT_REPORT_PHASES_H
#define GT_REPORT_PHASES_H

#include <stdio.h>

#include "json.h"
#include "phases.h"

/* The process's table, if it has phases (ph may be NULL: no trace2 data). */
void gt_report_phases_text(FILE *out, const struct gt_phases *ph, const struct gt_image *img);
/* After the processes: how to get phases when the report has none. */
void gt_report_phases_text_note(FILE *out, const struct gt_phases *ph);
/* A "phases" member of the process's object, if it has phases. */
void gt_report_phases_json(struct gt_json *j, const struct gt_phases *ph,
			   const struct gt_image *img);

#endif /* GT_REPORT_PHASES_H */
