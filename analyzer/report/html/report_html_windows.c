/*
 * The HTML report's pack-window section: for every process that mapped
 * pack windows, the window in effect, how often regions were mapped again,
 * the recorded evictions and the window advice (window_advice.h), with
 * the model's assumptions under the table.
 */
#include "report_html.h"

#include <inttypes.h>

#include "units.h"

void gt_html_windows(FILE *out, const struct gt_summary *s)
{
	int any = 0;
	char b[32], advice[512];
	for (size_t i = 0; i < s->n; i++) {
		const struct gt_proc *p = &s->procs[i];
		const struct gt_maps *m = &p->img->maps;
		if (!m->kind[GT_MAP_PACK].mmaps)
			continue;
		if (!any)
			fputs("<table id=\"gt-windows\" class=\"grid\"><thead><tr><th>process</th>"
			      "<th title=\"core.packedGitWindowSize in effect, from the map "
			      "offsets\">window</th>"
			      "<th data-type=\"num\">pack maps</th>"
			      "<th data-type=\"num\" title=\"distinct (pack, offset, length)\">"
			      "regions</th>"
			      "<th data-type=\"num\" title=\"least-recently-used unmaps before a "
			      "pack map\">evictions</th><th>window "
			      "advice</th></tr></thead><tbody>\n",
			      out);
		any = 1;
		fprintf(out, "<tr><td><b>%" PRIu32 "</b> ", p->img->pid);
		gt_html_command(out, p->img);
		if (p->window)
			gt_format_bytes(b, sizeof(b), p->window);
		fprintf(out,
			"</td><td>%s</td><td class=\"num\">%" PRIu64
			"</td><td class=\"num\">%" PRIu64 "</td><td class=\"num\">%" PRIu64
			"</td><td class=\"advice\">",
			p->window ? b : "not shown", m->kind[GT_MAP_PACK].mmaps,
			m->distinct_pack_regions, m->evictions);
		gt_window_advice_describe(advice, sizeof(advice), &p->window_advice);
		gt_html_text(out, advice);
		fputs("</td></tr>\n", out);
	}
	if (!any) {
		fputs("<p class=\"note\">No pack windows were mapped.</p>\n", out);
		return;
	}
	fputs("</tbody></table>\n<p class=\"note\">The advice's model: ", out);
	gt_html_text(out, gt_window_advice_assumptions);
	fputs(" (docs/report.md, &ldquo;Window advice&rdquo;).</p>\n", out);
}
