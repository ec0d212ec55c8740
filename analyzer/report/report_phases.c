/*
 * Phase tables (report_phases.h), a row named "category:label".
 */
#include "report_phases.h"

#include <inttypes.h>
#include <stdlib.h>

#include "summary.h"
#include "units.h"

void gt_report_phases_text(FILE *out, const struct gt_phases *ph, const struct gt_image *img)
{
	struct gt_phase_row *rows;
	int approximate;
	size_t n = ph ? gt_phases_of(ph, img, &rows, &approximate) : 0;
	if (!n)
		return;
	fprintf(out, "  phases (innermost trace2 region%s):\n",
		approximate ? "; times aligned by git's process start, approximate" : "");
	/* 80 columns: the name first, cut at 30; calls are in the JSON. */
	fprintf(out, "  %-30s %7s %7s %9s %7s %7s %5s\n", "region", "wall s", "allocs", "bytes",
		"temp", "alloc s", "maps");
	for (size_t i = 0; i < n; i++) {
		const struct gt_phase_counts *c = &rows[i].counts;
		char b[32], name[256];
		gt_format_bytes(b, sizeof(b), c->bytes);
		gt_trace2_row_name(name, sizeof(name), rows[i].name);
		fprintf(out, "  %-30.30s %7.3f %7" PRIu64 " %9s %7" PRIu64 " %7.3f %5" PRIu64 "\n",
			name, rows[i].seconds, c->allocations, b, c->temporary,
			(double)c->allocator_ns / 1e9, c->map_calls);
	}
	free(rows);
}

void gt_report_phases_text_note(FILE *out, const struct gt_phases *ph)
{
	if (!ph)
		fprintf(out, "\nphases: none (no trace2 data); record them with `gittrace --phases "
			     "-- CMD`, or pass `--trace2 FILE`\n");
}

void gt_report_phases_json(struct gt_json *j, const struct gt_phases *ph,
			   const struct gt_image *img)
{
	struct gt_phase_row *rows;
	int approximate;
	size_t n = ph ? gt_phases_of(ph, img, &rows, &approximate) : 0;
	if (!n)
		return;
	gt_json_kv_bool(j, "phases_approximate", approximate);
	gt_json_key(j, "phases");
	gt_json_begin_array(j);
	for (size_t i = 0; i < n; i++) {
		const struct gt_phase_counts *c = &rows[i].counts;
		gt_json_begin_object(j);
		gt_json_kv_str(j, "name", rows[i].name->label);
		gt_json_kv_str(j, "category", rows[i].name->category);
		gt_json_kv_double(j, "seconds", rows[i].seconds);
		gt_json_kv_uint(j, "calls", c->calls);
		gt_json_kv_uint(j, "allocations", c->allocations);
		gt_json_kv_uint(j, "bytes", c->bytes);
		gt_json_kv_uint(j, "temporary", c->temporary);
		gt_json_kv_double(j, "allocator_seconds", (double)c->allocator_ns / 1e9);
		gt_json_kv_uint(j, "map_calls", c->map_calls);
		gt_json_end_object(j);
	}
	gt_json_end_array(j);
	free(rows);
}
