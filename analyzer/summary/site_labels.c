/*
 * Site labels (site_labels.h). Each label starts as the function and the
 * program's caller. Then, in rounds, the rows of each group that would
 * print alike each name the first frame not named yet where their stack
 * differs from another row of the group, until no two rows print alike or
 * none can name another frame.
 */
#include "site_labels.h"

#include <stdlib.h>
#include <string.h>

#include "die.h"

static int str_cmp(const char *a, const char *b)
{
	return a == b ? 0 : !a ? -1 : !b ? 1 : strcmp(a, b);
}

static int location_cmp(const struct gt_frame *a, const struct gt_frame *b)
{
	int c = str_cmp(a->file, b->file);
	return c ? c : (a->line > b->line) - (a->line < b->line);
}

/* Frames compare by function, file and line: what a label prints of them. */
static int frame_cmp(const struct gt_frame *a, const struct gt_frame *b)
{
	int c = strcmp(a->function, b->function);
	return c ? c : location_cmp(a, b);
}

/* A row being labelled. */
struct row {
	const struct gt_site *site;
	struct gt_site_label *label;
};

int gt_site_label_skips(const struct gt_site *s, const struct gt_site_label *l, size_t i)
{
	return i && l->at[i] > l->at[i - 1] + 1 && !(i == 1 && l->at[1] == s->caller);
}

int gt_site_label_located(const struct gt_site_label *l, size_t i)
{
	return i + 1 == l->n || (l->located >> i & 1u);
}

/*
 * The order of what two rows print: the functions named, a "…" where a
 * label skips frames, and the (file:line) of the frames that show one.
 */
static int print_cmp(const struct row *a, const struct row *b)
{
	const struct gt_site_label *la = a->label, *lb = b->label;
	if (la->n != lb->n)
		return la->n < lb->n ? -1 : 1;
	for (size_t i = 0; i < la->n; i++) {
		const struct gt_frame *fa = &a->site->frames[la->at[i]];
		const struct gt_frame *fb = &b->site->frames[lb->at[i]];
		int c = gt_site_label_skips(a->site, la, i) - gt_site_label_skips(b->site, lb, i);
		if (!c)
			c = strcmp(fa->function, fb->function);
		if (!c)
			c = gt_site_label_located(la, i) - gt_site_label_located(lb, i);
		if (!c && gt_site_label_located(la, i))
			c = location_cmp(fa, fb);
		if (c)
			return c;
	}
	return 0;
}

static int by_print(const void *x, const void *y)
{
	return print_cmp(x, y);
}

static int named(const struct gt_site_label *l, size_t frame)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->at[i] == frame)
			return 1;
	return 0;
}

/* Names frame in l, keeping l's frames in order (and their located bits). */
static void name(struct gt_site_label *l, size_t frame)
{
	size_t i = l->n++;
	for (; i > 0 && l->at[i - 1] > frame; i--)
		l->at[i] = l->at[i - 1];
	l->at[i] = frame;
	unsigned below = l->located & ((1u << i) - 1);
	l->located = below | (l->located >> i << (i + 1));
}

/* The order of two rows' stacks, frame by frame from the innermost. */
static int by_stack(const void *x, const void *y)
{
	const struct gt_site *a = ((const struct row *)x)->site, *b = ((const struct row *)y)->site;
	for (size_t f = 0; f < a->nframes && f < b->nframes; f++) {
		int c = frame_cmp(&a->frames[f], &b->frames[f]);
		if (c)
			return c;
	}
	return (a->nframes > b->nframes) - (a->nframes < b->nframes);
}

/*
 * The first frame of r that its label does not name and where its stack
 * differs from one of the others (a frame the other lacks, or another
 * frame at the same depth); r->site->nframes if none.
 */
static size_t first_parting(const struct row *r, const struct row *const *others, size_t n)
{
	const struct gt_site *s = r->site;
	for (size_t f = 0; f < s->nframes; f++) {
		if (named(r->label, f))
			continue;
		for (size_t k = 0; k < n; k++) {
			const struct gt_site *o = others[k]->site;
			if (o != s && (f >= o->nframes || frame_cmp(&s->frames[f], &o->frames[f])))
				return f;
		}
	}
	return s->nframes;
}

/*
 * Which of the frames r's label names, and does not locate yet, is the
 * first whose (file:line) differs from one of the others' frame at the
 * same depth; l->n if none.
 */
static size_t first_unlocated(const struct row *r, const struct row *const *others, size_t n)
{
	const struct gt_site *s = r->site;
	const struct gt_site_label *l = r->label;
	for (size_t i = 0; i < l->n; i++) {
		if (gt_site_label_located(l, i))
			continue;
		size_t f = l->at[i];
		for (size_t k = 0; k < n; k++) {
			const struct gt_site *o = others[k]->site;
			if (o != s && f < o->nframes && location_cmp(&s->frames[f], &o->frames[f]))
				return i;
		}
	}
	return l->n;
}

/*
 * Names in each row of v[from, to), which print alike, the first frame
 * where it parts from another, or if it parts only where its label names
 * a frame, that frame's (file:line); 1 if a label grew. Sorted by stack, a
 * row parts first from the group's first or last row (the stacks between
 * share at least as much with it), and its neighbours are compared too
 * for the frames its label names already.
 */
static int name_partings(struct row *v, size_t from, size_t to)
{
	qsort(v + from, to - from, sizeof(*v), by_stack);
	int grew = 0;
	for (size_t k = from; k < to; k++) {
		const struct row *others[] = {&v[from], &v[to - 1], &v[k > from ? k - 1 : k],
					      &v[k + 1 < to ? k + 1 : k]};
		struct gt_site_label *l = v[k].label;
		size_t f = first_parting(&v[k], others, sizeof(others) / sizeof(*others));
		if (f < v[k].site->nframes && l->n < GT_SITE_LABEL_MAX) {
			name(l, f);
			grew = 1;
		} else if (f == v[k].site->nframes) {
			size_t i = first_unlocated(&v[k], others, sizeof(others) / sizeof(*others));
			if (i < l->n) {
				l->located |= 1u << i;
				grew = 1;
			}
		}
	}
	return grew;
}

void gt_site_labels(const struct gt_site *const *rows, size_t n, struct gt_site_label *labels)
{
	struct row *v = gt_xcalloc(n ? n : 1, sizeof(*v));
	for (size_t i = 0; i < n; i++) {
		struct gt_site_label *l = &labels[i];
		l->n = 0;
		l->located = 0;
		if (rows[i]->nframes)
			l->at[l->n++] = 0;
		if (rows[i]->caller < rows[i]->nframes)
			l->at[l->n++] = rows[i]->caller;
		v[i] = (struct row){rows[i], l};
	}
	/* Each round names one more frame in some label: it ends. */
	for (int grew = 1; grew;) {
		grew = 0;
		qsort(v, n, sizeof(*v), by_print);
		for (size_t i = 0, j; i < n; i = j) {
			for (j = i + 1; j < n && !print_cmp(&v[i], &v[j]);)
				j++;
			if (j - i > 1)
				grew |= name_partings(v, i, j);
		}
	}
	free(v);
}
