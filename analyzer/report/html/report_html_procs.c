/*
 * The HTML report's process tree: every process under the one that
 * started it, with its share of the tree's calls, CPU time and map calls,
 * the time shares inside the allocator and inside mmap, and its verdict.
 */
#include "report_html.h"

#include <inttypes.h>
#include <stdlib.h>

#include "die.h"

/* True if image a started before image b (file order breaks ties), so
 * that following parents always goes back in time and cannot loop. */
static int before(const struct gt_image *a, const struct gt_image *b)
{
	if (a->start_mono_ns != b->start_mono_ns)
		return a->start_mono_ns < b->start_mono_ns;
	return a->order < b->order;
}

/*
 * The index in s->procs of the process that started procs[i], or -1: the
 * forking image when the trace says so; for an exec, the image of the same
 * pid that ended by exec most recently before; else the latest image of
 * the parent pid that started before it.
 */
static long parent_of(const struct gt_summary *s, size_t i)
{
	const struct gt_image *img = s->procs[i].img;
	long best = -1;
	for (size_t k = 0; k < s->n; k++) {
		const struct gt_image *o = s->procs[k].img;
		if (k != i && img->parent_image_id && o->id == img->parent_image_id &&
		    before(o, img))
			return (long)k;
	}
	for (size_t k = 0; img->origin == GT_ORIGIN_EXEC && k < s->n; k++) {
		const struct gt_image *o = s->procs[k].img;
		if (k != i && o->pid == img->pid && o->ended && o->end.reason == GT_END_EXEC &&
		    before(o, img) && (best < 0 || before(s->procs[best].img, o)))
			best = (long)k;
	}
	if (best >= 0)
		return best;
	for (size_t k = 0; k < s->n; k++) {
		const struct gt_image *o = s->procs[k].img;
		if (k != i && o->pid == img->ppid && before(o, img) &&
		    (best < 0 || before(s->procs[best].img, o)))
			best = (long)k;
	}
	return best;
}

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
	fprintf(out, "</span>%s</td><td>%s</td>", gt_image_complete(img) ? "" : " *", p->origin);
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

static void subtree(FILE *out, const struct gt_summary *s, const long *parent,
		    const size_t *by_start, long at, int depth, const struct totals *t)
{
	for (size_t k = 0; k < s->n; k++) {
		size_t i = by_start[k];
		if (parent[i] != at)
			continue;
		row(out, &s->procs[i], depth, t);
		subtree(out, s, parent, by_start, (long)i, depth + 1, t);
	}
}

struct start {
	const struct gt_image *img;
	size_t i;
};

static int started_first(const void *a, const void *b)
{
	const struct start *x = a, *y = b;
	return before(x->img, y->img) ? -1 : before(y->img, x->img) ? 1 : 0;
}

void gt_html_procs(FILE *out, const struct gt_summary *s)
{
	struct totals t = {0, 0, 0};
	long *parent = gt_xcalloc(s->n, sizeof(*parent));
	struct start *starts = gt_xcalloc(s->n, sizeof(*starts));
	size_t *by_start = gt_xcalloc(s->n, sizeof(*by_start));
	for (size_t i = 0; i < s->n; i++) {
		parent[i] = parent_of(s, i);
		starts[i] = (struct start){s->procs[i].img, i};
		t.events += (double)s->procs[i].img->events;
		t.cpu += s->procs[i].cpu;
		t.maps += (double)s->procs[i].map_calls;
	}
	qsort(starts, s->n, sizeof(*starts), started_first);
	for (size_t k = 0; k < s->n; k++)
		by_start[k] = starts[k].i;

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
	subtree(out, s, parent, by_start, -1, 0, &t);
	fputs("</tbody></table>\n", out);
	if (!gt_model_complete(s->m))
		fputs("<p class=\"note\">* incomplete: killed, or the trace was cut short</p>\n",
		      out);
	free(parent);
	free(starts);
	free(by_start);
}
