/* Two traces' summaries matched and compared (diff.h). */
#include "diff.h"

#include <stdlib.h>
#include <string.h>

#include "die.h"
#include "mapkind.h"

/* Processes in order of first appearance in their trace. */
static const struct gt_proc **in_order(const struct gt_summary *s)
{
	const struct gt_proc **v = gt_xcalloc(s->n ? s->n : 1, sizeof(*v));
	for (size_t i = 0; i < s->n; i++)
		v[i] = &s->procs[i];
	for (size_t i = 1; i < s->n; i++) /* insertion sort: stable, and n is small */
		for (size_t k = i; k > 0 && v[k - 1]->img->order > v[k]->img->order; k--) {
			const struct gt_proc *t = v[k];
			v[k] = v[k - 1];
			v[k - 1] = t;
		}
	return v;
}

/* Same argv (all: 1), or the same first `upto` arguments. */
static int same_argv(const struct gt_image *a, const struct gt_image *b, int all)
{
	size_t upto = all ? a->argc : 2;
	if (all && a->argc != b->argc)
		return 0;
	for (size_t i = 0; i < upto; i++) {
		const char *x = i < a->argc ? a->argv[i] : NULL,
			   *y = i < b->argc ? b->argv[i] : NULL;
		if (!x != !y || (x && strcmp(x, y)))
			return 0;
	}
	return 1;
}

static void match_processes(struct gt_diff *d)
{
	const struct gt_summary *bs = d->base, *ns = d->new;
	const struct gt_proc **b = in_order(bs), **n = in_order(ns);
	const struct gt_proc **pair = gt_xcalloc(bs->n ? bs->n : 1, sizeof(*pair));
	char *taken = gt_xcalloc(ns->n ? ns->n : 1, 1);
	for (int all = 1; all >= 0; all--)
		for (size_t i = 0; i < bs->n; i++)
			for (size_t k = 0; !pair[i] && k < ns->n; k++)
				if (!taken[k] && same_argv(b[i]->img, n[k]->img, all)) {
					pair[i] = n[k];
					taken[k] = 1;
				}
	d->procs = gt_xcalloc(bs->n + ns->n + 1, sizeof(*d->procs));
	for (size_t i = 0; i < bs->n; i++)
		d->procs[d->nprocs++] = (struct gt_diff_proc){b[i], pair[i]};
	for (size_t k = 0; k < ns->n; k++)
		if (!taken[k])
			d->procs[d->nprocs++] = (struct gt_diff_proc){NULL, n[k]};
	free(taken);
	free(pair);
	free(n);
	free(b);
}

static char *site_key(const struct gt_site *st)
{
	size_t len = 1;
	for (size_t i = 0; i < st->nframes; i++)
		len += strlen(st->frames[i].function) + 1;
	char *key = gt_xmalloc(len), *p = key;
	*p = '\0';
	for (size_t i = 0; i < st->nframes; i++)
		p += sprintf(p, "%s%s", i ? ";" : "", st->frames[i].function);
	return key;
}

static void add_sites(struct gt_diff *d, const struct gt_summary *s, int is_new)
{
	for (size_t i = 0; i < s->n; i++)
		for (size_t k = 0; k < s->procs[i].nsites; k++) {
			const struct gt_site *st = s->procs[i].sites[k];
			char *key = site_key(st);
			struct gt_diff_site *ds;
			HASH_FIND_STR(d->by_key, key, ds);
			if (ds) {
				free(key);
			} else {
				ds = gt_xcalloc(1, sizeof(*ds));
				ds->key = key;
				HASH_ADD_KEYPTR(hh, d->by_key, ds->key, strlen(ds->key), ds);
				d->nsites++;
			}
			if (is_new || !ds->site)
				ds->site = st;
			struct gt_site_totals *t = is_new ? &ds->new : &ds->base;
			t->allocations += st->allocations;
			t->bytes += st->bytes;
			t->temporary += st->temporary;
		}
}

static uint64_t change(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

static int by_change(const void *pa, const void *pb)
{
	const struct gt_diff_site *a = *(const struct gt_diff_site *const *)pa;
	const struct gt_diff_site *b = *(const struct gt_diff_site *const *)pb;
	uint64_t ca = change(a->base.allocations, a->new.allocations);
	uint64_t cb = change(b->base.allocations, b->new.allocations);
	if (ca != cb)
		return ca < cb ? 1 : -1;
	return strcmp(a->key, b->key);
}

void gt_diff_build(struct gt_diff *d, const struct gt_summary *base, const struct gt_summary *new)
{
	memset(d, 0, sizeof(*d));
	d->base = base;
	d->new = new;
	match_processes(d);
	add_sites(d, base, 0);
	add_sites(d, new, 1);
	d->sites = gt_xcalloc(d->nsites ? d->nsites : 1, sizeof(*d->sites));
	size_t i = 0;
	for (struct gt_diff_site *ds = d->by_key; ds; ds = ds->hh.next)
		d->sites[i++] = ds;
	qsort(d->sites, d->nsites, sizeof(*d->sites), by_change);
}

void gt_diff_numbers_of(const struct gt_proc *p, struct gt_diff_numbers *n)
{
	const struct gt_image *img = p->img;
	n->calls = img->events;
	n->allocations = img->heap.allocations;
	n->temporary = img->heap.temporary;
	n->allocated_bytes = img->heap.allocated_bytes;
	n->peak_bytes = img->heap.peak_bytes;
	n->allocator_share = p->verdict.allocator_share;
	memcpy(n->maps, img->maps.kind, sizeof(n->maps));
}

/* One line and 1 if now grew by more than pct percent of was. */
static int grew(FILE *err, const struct gt_proc *p, const char *what, double was, double now,
		double pct)
{
	if (now <= was * (1 + pct / 100))
		return 0;
	fprintf(err, "gittrace-report: worse: %s of '", what);
	for (size_t i = 0; i < p->img->argc; i++)
		fprintf(err, "%s%s", i ? " " : "", p->img->argv[i]);
	if (was > 0)
		fprintf(err, "': %.6g -> %.6g (+%.1f%%, more than %g%%)\n", was, now,
			100 * (now - was) / was, pct);
	else
		fprintf(err, "': %.6g -> %.6g (from none)\n", was, now);
	return 1;
}

int gt_diff_worse(const struct gt_diff *d, double pct, FILE *err)
{
	int worse = 0;
	for (size_t i = 0; i < d->nprocs; i++) {
		const struct gt_diff_proc *dp = &d->procs[i];
		if (!dp->base || !dp->new)
			continue;
		struct gt_diff_numbers a, b;
		gt_diff_numbers_of(dp->base, &a);
		gt_diff_numbers_of(dp->new, &b);
		worse |= grew(err, dp->new, "allocations", (double)a.allocations,
			      (double)b.allocations, pct);
		worse |= grew(err, dp->new, "temporary allocations", (double)a.temporary,
			      (double)b.temporary, pct);
		worse |= grew(err, dp->new, "allocator time share", a.allocator_share,
			      b.allocator_share, pct);
		worse |= grew(err, dp->new, "pack maps", (double)a.maps[GT_MAP_PACK].mmaps,
			      (double)b.maps[GT_MAP_PACK].mmaps, pct);
	}
	return worse;
}

void gt_diff_release(struct gt_diff *d)
{
	struct gt_diff_site *ds, *tmp;
	HASH_ITER(hh, d->by_key, ds, tmp)
	{
		HASH_DEL(d->by_key, ds);
		free(ds->key);
		free(ds);
	}
	free(d->sites);
	free(d->procs);
	memset(d, 0, sizeof(*d));
}
