/* The process tree (tree.h). */
#include "tree.h"

#include <stdlib.h>
#include <uthash.h>

#include "die.h"

int gt_image_started_before(const struct gt_image *a, const struct gt_image *b)
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
		if (e->procs[j] != i && gt_image_started_before(s->procs[e->procs[j]].img, img))
			return (long)e->procs[j];
	long best = -1;
	e = img->origin == GT_ORIGIN_EXEC ? by_key_find(l->by_pid, img->pid) : NULL;
	for (size_t j = 0; e && j < e->n; j++) {
		size_t k = e->procs[j];
		const struct gt_image *o = s->procs[k].img;
		if (k != i && o->ended && o->end.reason == GT_END_EXEC &&
		    gt_image_started_before(o, img) &&
		    (best < 0 || gt_image_started_before(s->procs[best].img, o)))
			best = (long)k;
	}
	if (best >= 0)
		return best;
	e = by_key_find(l->by_pid, img->ppid);
	for (size_t j = 0; e && j < e->n; j++) {
		size_t k = e->procs[j];
		const struct gt_image *o = s->procs[k].img;
		if (k != i && gt_image_started_before(o, img) &&
		    (best < 0 || gt_image_started_before(s->procs[best].img, o)))
			best = (long)k;
	}
	return best;
}

long *gt_summary_parents(const struct gt_summary *s)
{
	long *parent = gt_xcalloc(s->n ? s->n : 1, sizeof(*parent));
	struct lookup l = {NULL, NULL};
	for (size_t i = 0; i < s->n; i++) {
		by_key_add(&l.by_id, s->procs[i].img->id, i);
		by_key_add(&l.by_pid, s->procs[i].img->pid, i);
	}
	for (size_t i = 0; i < s->n; i++)
		parent[i] = parent_of(s, &l, i);
	by_key_free(&l.by_id);
	by_key_free(&l.by_pid);
	return parent;
}
