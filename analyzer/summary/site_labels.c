/*
 * Site labels (site_labels.h). Each label starts as function and caller.
 * Then, in rounds, every group of rows whose labels read alike is split at
 * the first frame where any two of them part, which each of them adds to
 * its label: they agree on every frame before it, so the frames a label
 * names stay in order, and the group parts into rows that read apart.
 */
#include "site_labels.h"

#include <stdlib.h>
#include <string.h>

#include "die.h"

static size_t sequence_len(const struct gt_site *s)
{
	if (s->caller < s->nframes)
		return 1 + s->nframes - s->caller;
	return s->nframes;
}

const struct gt_frame *gt_site_sequence_frame(const struct gt_site *s, size_t i)
{
	if (i == 0 || s->caller >= s->nframes)
		return &s->frames[i];
	return &s->frames[s->caller + i - 1];
}

static const char *name_at(const struct gt_site *s, size_t i)
{
	return gt_site_sequence_frame(s, i)->function;
}

/* The frames both sequences begin with, compared by function name. */
static size_t common_start(const struct gt_site *a, const struct gt_site *b)
{
	size_t n = sequence_len(a), m = sequence_len(b), i = 0;
	while (i < n && i < m && !strcmp(name_at(a, i), name_at(b, i)))
		i++;
	return i;
}

/* A row being labelled. */
struct row {
	const struct gt_site *site;
	struct gt_site_label *label;
};

static int by_label_then_sequence(const void *x, const void *y)
{
	const struct row *a = x, *b = y;
	const struct gt_site_label *la = a->label, *lb = b->label;
	for (size_t i = 0; i < la->n && i < lb->n; i++) {
		int c = strcmp(name_at(a->site, la->at[i]), name_at(b->site, lb->at[i]));
		if (c)
			return c;
	}
	if (la->n != lb->n)
		return la->n < lb->n ? -1 : 1;
	size_t i = common_start(a->site, b->site);
	size_t n = sequence_len(a->site), m = sequence_len(b->site);
	if (i < n && i < m)
		return strcmp(name_at(a->site, i), name_at(b->site, i));
	return n < m ? -1 : n > m;
}

static int same_label(const struct row *a, const struct row *b)
{
	if (a->label->n != b->label->n)
		return 0;
	for (size_t i = 0; i < a->label->n; i++)
		if (strcmp(name_at(a->site, a->label->at[i]), name_at(b->site, b->label->at[i])))
			return 0;
	return 1;
}

/* Splits rows [from, to), labels alike and sorted by sequence; 1 if any label grew. */
static int split(struct row *v, size_t from, size_t to)
{
	/* Sorted, the first parting of any two is that of two neighbours. */
	size_t at = (size_t)-1;
	for (size_t i = from; i + 1 < to; i++) {
		size_t c = common_start(v[i].site, v[i + 1].site);
		at = c < at ? c : at;
	}
	int grew = 0;
	for (size_t i = from; i < to; i++) {
		struct gt_site_label *l = v[i].label;
		if (at < sequence_len(v[i].site) && l->n < GT_SITE_LABEL_MAX &&
		    (!l->n || at > l->at[l->n - 1])) {
			l->at[l->n++] = at;
			grew = 1;
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
		if (rows[i]->nframes)
			l->at[l->n++] = 0;
		if (rows[i]->caller < rows[i]->nframes)
			l->at[l->n++] = 1;
		v[i] = (struct row){rows[i], l};
	}
	for (int grew = 1; grew;) {
		grew = 0;
		qsort(v, n, sizeof(*v), by_label_then_sequence);
		for (size_t i = 0, j; i < n; i = j) {
			for (j = i + 1; j < n && same_label(&v[i], &v[j]);)
				j++;
			if (j - i > 1)
				grew |= split(v, i, j);
		}
	}
	free(v);
}
