/*
 * The HTML report's process tree: every process under the one that
 * started it, with its share of the tree's calls, CPU time and map calls,
 * the time shares inside the allocator and inside mmap, and its verdict.
 */
#include "report_html.h"

#include <inttypes.h>
#include <stdlib.h>

#include "die.h"
#include "tree.h"

static double share(double part, double whole)
{
	return whole > 0 ? part / whole : 0;
}

/* A number with a bar under it showing its share of the tree. */
static void bar_cell(FILE *out, double v, const char *text)
{
	double pct = 100 * (v < 0 ? 0 : v > 1 ? 1 : v);
	fprintf(out,
		"<td class=\"num\" data-v=\"%.6g\">%s<span class=\"bar\"><span "
		"style=\"width:%.1f%%\">"
		"</span></span></td>",
		v, text, pct);
}

struct totals {
	double events, cpu, maps;
};

static void row(FILE *out, const struct gt_proc *p, int depth, const struct totals *t)
{
	const struct gt_image *img = p->img;
	char text[64];
	fprintf(out, "<tr><td class=\"cmd\" style=\"padding-left:%.1fem\">", 0.4 + 1.5 * depth);
	if (depth)
		fputs("<span class=\"branch\">&#x2514; </span>", out);
	fprintf(out, "<b>%" PRIu32 "</b> <span class=\"argv\">", img->pid);
	gt_html_command(out, img);
	fprintf(out, "</span>%s", gt_image_complete(img) ? "" : " *");
	if (*p->killed_by) /* a signal's name, or "signal N": nothing to escape */
		fprintf(out, " <span class=\"note\">(killed by %s)</span>", p->killed_by);
	fprintf(out, "</td><td>%s</td>", p->origin);
	snprintf(text, sizeof(text), "%.3f", p->cpu);
	bar_cell(out, share(p->cpu, t->cpu), text);
	fprintf(out, "<td class=\"num\">%.3f</td>", p->wall);
	snprintf(text, sizeof(text), "%" PRIu64, img->events);
	bar_cell(out, share((double)img->events, t->events), text);
	snprintf(text, sizeof(text), "%" PRIu64, p->map_calls);
	bar_cell(out, share((double)p->map_calls, t->maps), text);
	fprintf(out, "<td class=\"num\">%.1f%%</td><td class=\"num\">%.1f%%</td>",
		100 * p->verdict.allocator_share, 100 * p->verdict.mmap_share);
	fprintf(out, "<td><span class=\"badge v-%s\">%s</span></td></tr>\n",
		gt_verdict_class_names[p->verdict.cls], gt_verdict_class_names[p->verdict.cls]);
}

/*
 * Each process under its parent, depth first, children in order of start:
 * children[first[p] .. first[p + 1]) are those of p, roots (parent -1) at
 * p = n. A loop, not a recursion: a chain of processes may be long.
 */
static void tree_rows(FILE *out, const struct gt_summary *s, const long *parent,
		      const size_t *by_start, const struct totals *t)
{
	size_t n = s->n, *first = gt_xcalloc(n + 2, sizeof(*first));
	size_t *children = gt_xcalloc(n ? n : 1, sizeof(*children));
	for (size_t i = 0; i < n; i++)
		first[(parent[i] < 0 ? n : (size_t)parent[i]) + 1]++;
	for (size_t p = 0; p <= n; p++)
		first[p + 1] += first[p];
	size_t *filled = gt_xcalloc(n + 1, sizeof(*filled));
	for (size_t k = 0; k < n; k++) {
		size_t i = by_start[k], p = parent[i] < 0 ? n : (size_t)parent[i];
		children[first[p] + filled[p]++] = i;
	}
	/* The path from a root down: each entry a parent and its next child. */
	struct level {
		size_t p, next;
	} *path = gt_xcalloc(n + 1, sizeof(*path));
	size_t depth = 0;
	path[0] = (struct level){n, first[n]};
	for (;;) {
		struct level *at = &path[depth];
		if (at->next == first[at->p + 1]) {
			if (!depth)
				break;
			depth--;
			continue;
		}
		size_t i = children[at->next++];
		row(out, &s->procs[i], (int)depth, t);
		path[++depth] = (struct level){i, first[i]};
	}
	free(path);
	free(filled);
	free(children);
	free(first);
}

void gt_html_procs(FILE *out, const struct gt_summary *s)
{
	struct totals t = {0, 0, 0};
	long *parent = gt_summary_parents(s);
	size_t *by_start = gt_summary_by_start(s);
	for (size_t i = 0; i < s->n; i++) {
		t.events += (double)s->procs[i].img->events;
		t.cpu += s->procs[i].cpu;
		t.maps += (double)s->procs[i].map_calls;
	}

	fputs("<table id=\"gt-procs\" class=\"grid\"><thead><tr><th>process</th><th>from</th>"
	      "<th title=\"CPU seconds, and share of the tree's CPU time\">CPU s</th>"
	      "<th>wall s</th>"
	      "<th title=\"traced calls, and share of the tree's\">calls</th>"
	      "<th title=\"mmap, munmap and mremap calls, and share of the tree's\">map calls</th>"
	      "<th title=\"share of the process's own CPU time inside the malloc family\">"
	      "in allocator</th>"
	      "<th title=\"share of the process's own CPU time inside mmap, munmap, mremap\">"
	      "in mmap</th><th>verdict</th></tr></thead><tbody>\n",
	      out);
	tree_rows(out, s, parent, by_start, &t);
	fputs("</tbody></table>\n", out);
	if (!gt_model_complete(s->m))
		fputs("<p class=\"note\">* incomplete: killed, still running, or the trace was cut "
		      "short</p>\n",
		      out);
	free(parent);
	free(by_start);
}
