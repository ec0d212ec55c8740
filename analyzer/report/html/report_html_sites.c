/*
 * The HTML report's top-sites table: one row per allocation site of each
 * process (merged by symbolized stack, as the other reports name them),
 * sortable by any column in the page. Rows come heaviest by allocations
 * first; each cell carries its sort key in data-v.
 */
#include "report_html.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "command_label.h"
#include "die.h"
#include "site_labels.h"
#include "units.h"

struct row {
	const struct gt_proc *p;
	const struct gt_site *site;
	struct gt_site_label label; /* among its process's rows */
};

typedef int site_order(const void *, const void *);

/* A site and its index in p->sites. The site pointer comes first, so the
 * summary's orders, which compare pointers to site pointers, sort these. */
struct indexed {
	const struct gt_site *site;
	size_t k;
};

/*
 * Marks in chosen (indexed like p->sites) the process's top sites in one
 * of the summary's orders (summary.h), whose leaders a summary that caps
 * its sites keeps: the rows are the same whether it kept all or not.
 * held_at_peak: only the sites that held bytes at the peak count.
 */
static void choose(const struct gt_proc *p, size_t top, site_order *order, int held_at_peak,
		   char *chosen)
{
	struct indexed *v = gt_xcalloc(p->nsites ? p->nsites : 1, sizeof(*v));
	for (size_t k = 0; k < p->nsites; k++)
		v[k] = (struct indexed){p->sites[k], k};
	if (p->nsites) /* qsort's pointer must not be NULL */
		qsort(v, p->nsites, sizeof(*v), order);
	for (size_t i = 0; i < top && i < p->nsites; i++) {
		if (held_at_peak && !v[i].site->at_peak_bytes)
			break;
		chosen[v[i].k] = 1;
	}
	free(v);
}

static int heavier(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	if (x->site->allocations != y->site->allocations)
		return x->site->allocations < y->site->allocations ? 1 : -1;
	return x->site->bytes < y->site->bytes ? 1 : x->site->bytes > y->site->bytes ? -1 : 0;
}

static void text_cell(FILE *out, const char *s)
{
	fputs("<td data-v=\"", out);
	gt_html_text(out, s);
	fputs("\">", out);
	gt_html_text(out, s);
	fputs("</td>", out);
}

static void count_cell(FILE *out, uint64_t v)
{
	fprintf(out, "<td class=\"num\" data-v=\"%" PRIu64 "\">%" PRIu64 "</td>", v, v);
}

static void bytes_cell(FILE *out, uint64_t v)
{
	char b[32];
	gt_format_bytes(b, sizeof(b), v);
	fprintf(out, "<td class=\"num\" data-v=\"%" PRIu64 "\">%s</td>", v, b);
}

/* Labels the n rows of one process (site_labels.h). */
static void label_rows(struct row *rows, size_t n)
{
	const struct gt_site **sites = gt_xcalloc(n ? n : 1, sizeof(*sites));
	struct gt_site_label *labels = gt_xcalloc(n ? n : 1, sizeof(*labels));
	for (size_t i = 0; i < n; i++)
		sites[i] = rows[i].site;
	gt_site_labels(sites, n, labels);
	for (size_t i = 0; i < n; i++)
		rows[i].label = labels[i];
	free(labels);
	free(sites);
}

/* " (file:line)" of the label's i-th frame if it locates it and it is not the last. */
static void inner_place(char *buf, size_t size, const struct gt_site *st,
			const struct gt_site_label *l, size_t i)
{
	const struct gt_frame *f = i < l->n ? &st->frames[l->at[i]] : NULL;
	buf[0] = '\0';
	if (f && f->file && i + 1 < l->n && gt_site_label_located(l, i)) {
		const char *slash = strrchr(f->file, '/');
		snprintf(buf, size, " (%s:%d)", slash ? slash + 1 : f->file, f->line);
	}
}

static void write_row(FILE *out, const struct row *r)
{
	const struct gt_image *img = r->p->img;
	const struct gt_site *st = r->site;
	const struct gt_site_label *l = &r->label;
	/*
	 * "called from" and "where" name the last frame of the site's label
	 * (site_labels.h) beyond its function: the program's own caller of a
	 * site in a library or a generic helper, or where the site's stacks
	 * part from another row's; else its function's caller.
	 */
	const struct gt_frame *f = l->n ? &st->frames[l->at[l->n - 1]] : NULL;
	char where[512] = "";
	if (f && f->file) {
		const char *slash = strrchr(f->file, '/');
		snprintf(where, sizeof(where), "%s:%d", slash ? slash + 1 : f->file, f->line);
	} else if (f && f->module) {
		snprintf(where, sizeof(where), "%s", f->module);
	}
	const char *name, *word;
	gt_program_words(img, &name, &word);
	char proc[256];
	snprintf(proc, sizeof(proc), "%" PRIu32 " %s%s%s", img->pid, name, *word ? " " : "", word);
	fputs("<tr>", out);
	text_cell(out, proc);
	/* Frames but the last show a place only where the label locates
	 * them (site_labels.h): "where" has the last one's. */
	char function[512], place[512];
	inner_place(place, sizeof(place), st, l, 0);
	snprintf(function, sizeof(function), "%s%s", st->function, place);
	text_cell(out, function);
	if (l->n > 1) {
		char from[1024];
		size_t len = 0;
		for (size_t i = 1; i < l->n && len < sizeof(from); i++) {
			inner_place(place, sizeof(place), st, l, i);
			len += (size_t)snprintf(from + len, sizeof(from) - len, "%s← %s%s%s",
						i > 1 ? " " : "",
						gt_site_label_skips(st, l, i) ? "… ← " : "",
						st->frames[l->at[i]].function, place);
		}
		text_cell(out, from);
	} else {
		text_cell(out, st->nframes > 1 ? st->frames[1].function : "");
	}
	text_cell(out, where);
	count_cell(out, st->allocations);
	bytes_cell(out, st->bytes);
	count_cell(out, st->temporary);
	bytes_cell(out, st->leaked_bytes);
	bytes_cell(out, st->at_peak_bytes);
	fputs("</tr>\n", out);
}

void gt_html_sites(FILE *out, const struct gt_summary *s, size_t top, size_t processes)
{
	size_t n = 0, cap = 0, shown = processes && processes < s->n ? processes : s->n;
	struct row *rows = NULL;
	for (size_t i = 0; i < shown; i++) {
		const struct gt_proc *p = &s->procs[i];
		char *chosen = gt_xcalloc(p->nsites ? p->nsites : 1, 1);
		size_t t = top ? top : p->nsites, first = n;
		choose(p, t, gt_site_by_allocations, 0, chosen);
		choose(p, t, gt_site_by_bytes, 0, chosen);
		choose(p, t, gt_site_by_temporary, 0, chosen);
		choose(p, t, gt_site_by_peak, 1, chosen);
		for (size_t k = 0; k < p->nsites; k++) {
			if (!chosen[k])
				continue;
			if (n == cap) {
				cap = cap ? 2 * cap : 64;
				rows = gt_xrealloc(rows, cap * sizeof(*rows));
			}
			rows[n++] = (struct row){p, p->sites[k], {0}};
		}
		if (n > first) /* rows is NULL until a first row */
			label_rows(rows + first, n - first);
		free(chosen);
	}
	if (n) /* rows is NULL then, and qsort's pointer must not be NULL */
		qsort(rows, n, sizeof(*rows), heavier);
	fputs("<table id=\"gt-sites\" class=\"grid sortable\"><thead><tr>"
	      "<th data-type=\"text\">process</th><th data-type=\"text\">function</th>"
	      "<th data-type=\"text\" title=\"the caller; ← marks the traced program's own "
	      "caller of a site in a library or a generic helper, and (sites are whole stacks, "
	      "so one function can lead several rows) the frame where its stacks part from "
	      "another row's; 'where' locates the last one\">"
	      "called from</th>"
	      "<th data-type=\"text\">where</th>"
	      "<th data-type=\"num\" aria-sort=\"descending\">allocations</th>"
	      "<th data-type=\"num\">bytes</th>"
	      "<th data-type=\"num\" title=\"freed before the thread's next allocation\">"
	      "temporary</th>"
	      "<th data-type=\"num\" title=\"never freed\">leaked</th>"
	      "<th data-type=\"num\" title=\"live when its process's heap was at its peak\">"
	      "at peak</th></tr></thead><tbody>\n",
	      out);
	for (size_t i = 0; i < n; i++)
		write_row(out, &rows[i]);
	fputs("</tbody></table>\n", out);
	if (shown < s->n)
		fprintf(out,
			"<p class=\"note\">The sites of the %zu heaviest processes; the other %zu "
			"are in the process table (<code>--processes=0</code> lists the sites of "
			"all).</p>\n",
			shown, s->n - shown);
	free(rows);
}
