/*
 * The HTML report's calls by function, for the whole run: as the text
 * report's table of each process (report_text.c), summed over processes.
 */
#include "report_html.h"

#include <inttypes.h>

#include "units.h"

void gt_html_functions(FILE *out, const struct gt_summary *s)
{
	const struct gt_totals *t = &s->totals;
	fputs("<table id=\"gt-functions\" class=\"grid\"><thead><tr><th>function</th>"
	      "<th data-type=\"num\">calls</th>"
	      "<th title=\"summed over the calls; a call timed as one of 16 counts 16 "
	      "times\">time inside</th>"
	      "<th>per call</th>"
	      "<th data-type=\"num\" title=\"NULL for bytes asked, an errno from "
	      "posix_memalign, MAP_FAILED, munmap's -1\">failed</th></tr></thead><tbody>\n",
	      out);
	for (int f = 0; f < GT_FN_COUNT; f++) {
		if (!t->calls[f])
			continue;
		double seconds = (double)t->fn_ns[f] / 1e9;
		fprintf(out,
			"<tr><td>%s</td><td class=\"num\">%" PRIu64 "</td><td class=\"num\">%s</td>"
			"<td class=\"num\">%s</td><td class=\"num\">%" PRIu64 "</td></tr>\n",
			gt_fn_names[f], t->calls[f], gt_format_seconds(seconds).text,
			gt_format_seconds(seconds / (double)t->calls[f]).text, t->failed[f]);
	}
	fputs("</tbody></table>\n", out);
}
