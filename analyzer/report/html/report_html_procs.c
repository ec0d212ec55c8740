/*
 * The HTML report's process tree: every process under the one that
 * started it, with its share of the tree's calls, CPU time and map calls,
 * the time shares inside the allocator and inside mmap, and its verdict.
 */
#include "report_html.h"

#include <inttypes.h>
#include <stdlib.h>
#include <uthash.h>

#include "die.h"

/* True if image a started before image b (file order breaks ties), so
 * that following parents always goes back in time and cannot loop. */
static int before(const struct gt_image *a, const struct gt_image *b)
{
	if (a->start_mono_ns != b->start_mono_ns)
		return a->start_mono_ns < b->start_mono_ns;
	return a->order < b->order;
}

/* Processes by a number (image id, pid): their indexes in s->procs, in order. */
struct by_key {
	uint64_t key;
	size_t *procs;
	size_t n, cap;
	UT_hash_handle hh;
};

static void by_key_add(struct by_key **map, uint64_t key, size_t i)
{
	struct by_key *e;
	HASH_FIND(hh, *map, &key, sizeof(key), e);
	if (!e) {
		e = gt_xcalloc(1, sizeof(*e));
		e->key = key;
		HASH_ADD(hh, *map, key, sizeof(e->key), e);
	}
	if (e->n == e->cap) {
		e->cap = e->cap ? 2 * e->cap : 4;
		e->procs = gt_xrealloc(e->procs, e->cap * sizeof(*e->procs));
	}
	e->procs[e->n++] = i;
}

static const struct by_key *by_key_find(struct by_key *map, uint64_t key)
{
	struct by_key *e;
	HASH_FIND(hh, map, &key, sizeof(key), e);
	return e;
}

static void by_key_free(struct by_key **map)
{
	struct by_key *e, *tmp;
	HASH_ITER(hh, *map, e, tmp)
	{
		HASH_DEL(*map, e);
		free(e->procs);
		free(e);
	}
}

struct lookup {
	struct by_key *by_id, *by_pid;
};

/*
 * The index in s->procs of the process that started procs[i], or -1: the
 * forking image when the trace says so; for an exec, the image of the same
 * pid that ended by exec most recently before; else the latest image of
 * the parent pid that started before it. Found through the images of that
 * id or pid only: a trace of tens of thousands of processes is no square.
 */
static long parent_of(const struct gt_summary *s, const struct lookup *l, size_t i)
{
	const struct gt_image *img = s->procs[i].img;
	const struct by_key *e =
		img->parent_image_id ? by_key_find(l->by_id, img->parent_image_id) : NULL;
	for (size_t j = 0; e && j < e->n; j++)
		if (e->procs[j] != i && before(s->procs[e->procs[j]].img, img))
			return (long)e->procs[j];
	long best = -1;
	e = img->origin == GT_ORIGIN_EXEC ? by_key_find(l->by_pid, img->pid) : NULL;
	for (size_t j = 0; e && j < e->n; j++) {
		size_t k = e->procs[j];
		const struct gt_image *o = s->procs[k].img;
		if (k != i && o->ended && o->end.reason == GT_END_EXEC && before(o, img) &&
		    (best < 0 || before(s->procs[best].img, o)))
			best = (long)k;
	}
	if (best >= 0)
		return best;
	e = by_key_find(l->by_pid, img->ppid);
	for (size_t j = 0; e && j < e->n; j++) {
		size_t k = e->procs[j];
		const struct gt_image *o = s->procs[k].img;
		if (k != i && before(o, img) && (best < 0 || before(s->procs[best].img, o)))
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
	long *parent = gt_xcalloc(s->n ? s->n : 1, sizeof(*parent));
	struct start *starts = gt_xcalloc(s->n ? s->n : 1, sizeof(*starts));
	size_t *by_start = gt_xcalloc(s->n ? s->n : 1, sizeof(*by_start));
	struct lookup l = {NULL, NULL};
	for (size_t i = 0; i < s->n; i++) {
		by_key_add(&l.by_id, s->procs[i].img->id, i);
		by_key_add(&l.by_pid, s->procs[i].img->pid, i);
	}
	for (size_t i = 0; i < s->n; i++) {
		parent[i] = parent_of(s, &l, i);
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
	tree_rows(out, s, parent, by_start, &t);
	fputs("</tbody></table>\n", out);
	if (!gt_model_complete(s->m))
		fputs("<p class=\"note\">* incomplete: killed, or the trace was cut short</p>\n",
		      out);
	by_key_free(&l.by_id);
	by_key_free(&l.by_pid);
	free(parent);
	free(starts);
	free(by_start);
}
