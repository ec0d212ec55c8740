/*
 * The trace2 phases of a process's timeline, as bands the page's script
 * draws above the charts (report_html.h). A process that enters regions
 * in a loop could make the page huge: past GT_HTML_PHASE_BANDS bands the
 * rest are left out and "phases_cut" says so.
 */
#include "report_html.h"

#include <stdlib.h>

#include "phases.h"

#define GT_HTML_PHASE_BANDS 4000

void gt_html_phase_bands(struct gt_json *j, const struct gt_phases *ph, const struct gt_image *img,
			 uint64_t origin_ns)
{
	struct gt_phase_band *bands;
	size_t n = ph ? gt_phases_bands(ph, img, &bands) : 0;
	if (!n)
		return;
	gt_json_key(j, "phases");
	gt_json_begin_array(j);
	for (size_t i = 0; i < n && i < GT_HTML_PHASE_BANDS; i++) {
		char name[256];
		gt_trace2_row_name(name, sizeof(name), bands[i].name);
		gt_json_begin_array(j);
		gt_json_double(j, bands[i].from_ns > origin_ns
					  ? (double)(bands[i].from_ns - origin_ns) / 1e9
					  : 0);
		gt_json_double(j, bands[i].to_ns > origin_ns
					  ? (double)(bands[i].to_ns - origin_ns) / 1e9
					  : 0);
		gt_json_str(j, name);
		gt_json_end_array(j);
	}
	gt_json_end_array(j);
	if (n > GT_HTML_PHASE_BANDS)
		gt_json_kv_bool(j, "phases_cut", 1);
	free(bands);
}
