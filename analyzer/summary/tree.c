/* The process tree (tree.h). */
#include "tree.h"

#include <stdlib.h>
#include <uthash.h>

#include "die.h"

/*
 * A process by when its image started, file order breaking ties: a parent
 * is always found among the processes that started before, so following
 * parents goes back in time and cannot loop.
 */
struct started {
	uint64_t start_ns, order;
	size_t proc; /* index in s->procs */
};

static int started_cmp(const void *a, const void *b)
{
	const struct started *x = a, *y = b;
	if (x->start_ns != y->start_ns)
		return x->start_ns < y->start_ns ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* Processes by a number (image id, pid), in the order they started (sorted). */
struct by_key {
	uint64_t key;
	struct started *procs;
	size_t n, cap;
	UT_hash_handle hh;
};

static void by_key_add(struct by_key **map, uint64_t key, const struct gt_image *img, size_t i)
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
	e->procs[e->n++] = (struct started){img->start_mono_ns, img->order, i};
}

static void by_key_sort(struct by_key *map)
{
	for (struct by_key *e = map; e; e = e->hh.next)
		qsort(e->procs, e->n, sizeof(*e->procs), started_cmp);
}

/* How many of e's processes started before img: a binary search. */
static size_t started_before(const struct by_key *e, const struct gt_image *img)
{
	struct started key = {img->start_mono_ns, img->order, 0};
	size_t lo = 0, hi = e->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (started_cmp(&e->procs[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
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
 * id or pid only, by a binary search in the order they started: a trace of
 * tens of thousands of processes, or of execs in one pid, is no square.
 */
static long parent_of(const struct gt_summary *s, const struct lookup *l, size_t i)
{
	const struct gt_image *img = s->procs[i].img;
	const struct by_key *e =
		img->parent_image_id ? by_key_find(l->by_id, img->parent_image_id) : NULL;
	if (e && started_before(e, img))
		return (long)e->procs[0].proc;
	e = img->origin == GT_ORIGIN_EXEC ? by_key_find(l->by_pid, img->pid) : NULL;
	for (size_t j = e ? started_before(e, img) : 0; j-- > 0;) {
		const struct gt_image *o = s->procs[e->procs[j].proc].img;
		if (o->ended && o->end.reason == GT_END_EXEC)
			return (long)e->procs[j].proc;
	}
	e = by_key_find(l->by_pid, img->ppid);
	size_t before = e ? started_before(e, img) : 0;
	return before ? (long)e->procs[before - 1].proc : -1;
}

long *gt_summary_parents(const struct gt_summary *s)
{
	long *parent = gt_xcalloc(s->n ? s->n : 1, sizeof(*parent));
	struct lookup l = {NULL, NULL};
	for (size_t i = 0; i < s->n; i++) {
		by_key_add(&l.by_id, s->procs[i].img->id, s->procs[i].img, i);
		by_key_add(&l.by_pid, s->procs[i].img->pid, s->procs[i].img, i);
	}
	by_key_sort(l.by_id);
	by_key_sort(l.by_pid);
	for (size_t i = 0; i < s->n; i++)
		parent[i] = parent_of(s, &l, i);
	by_key_free(&l.by_id);
	by_key_free(&l.by_pid);
	return parent;
}

size_t gt_summary_untraced_execs(const struct gt_summary *s, const long *parent)
{
	char *followed = gt_xcalloc(s->n ? s->n : 1, 1);
	for (size_t i = 0; i < s->n; i++)
		if (s->procs[i].img->origin == GT_ORIGIN_EXEC && parent[i] >= 0)
			followed[parent[i]] = 1;
	size_t n = 0;
	for (size_t i = 0; i < s->n; i++) {
		const struct gt_image *img = s->procs[i].img;
		n += img->ended && img->end.reason == GT_END_EXEC && !followed[i];
	}
	free(followed);
	return n;
}

size_t *gt_summary_by_start(const struct gt_summary *s)
{
	struct started *starts = gt_xcalloc(s->n ? s->n : 1, sizeof(*starts));
	for (size_t i = 0; i < s->n; i++)
		starts[i] =
			(struct started){s->procs[i].img->start_mono_ns, s->procs[i].img->order, i};
	qsort(starts, s->n, sizeof(*starts), started_cmp);
	size_t *by_start = gt_xcalloc(s->n ? s->n : 1, sizeof(*by_start));
	for (size_t k = 0; k < s->n; k++)
		by_start[k] = starts[k].proc;
	free(starts);
	return by_start;
}
