/*
 * Collects per-image time series in bounded buckets. See timeline.h.
 */
#include "timeline.h"

#include <stdlib.h>
#include <string.h>

#include "die.h"

void gt_timeline_init(struct gt_timeline *tl)
{
	memset(tl, 0, sizeof(*tl));
	tl->width_ns = GT_TIMELINE_FIRST_WIDTH_NS;
}

static uint64_t max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

static uint32_t add_sat(uint32_t a, uint64_t b)
{
	return b >= UINT32_MAX - a ? UINT32_MAX : a + (uint32_t)b;
}

static void combine(struct gt_timeline_bucket *into, const struct gt_timeline_bucket *b)
{
	into->heap_bytes = max_u64(into->heap_bytes, b->heap_bytes);
	into->mapped_bytes = max_u64(into->mapped_bytes, b->mapped_bytes);
	into->pack_bytes = max_u64(into->pack_bytes, b->pack_bytes);
	into->allocations = add_sat(into->allocations, b->allocations);
	for (int k = 0; k < GT_MAP_KIND_COUNT; k++) {
		into->mmaps[k] = add_sat(into->mmaps[k], b->mmaps[k]);
		into->munmaps[k] = add_sat(into->munmaps[k], b->munmaps[k]);
	}
}

/* Halves the resolution: bucket i becomes buckets 2i and 2i+1. */
static void merge_pairs(struct gt_timeline *tl)
{
	size_t n = (tl->n + 1) / 2;
	for (size_t i = 0; i < n; i++) {
		struct gt_timeline_bucket b = tl->b[2 * i];
		if (2 * i + 1 < tl->n)
			combine(&b, &tl->b[2 * i + 1]);
		tl->b[i] = b;
	}
	tl->n = n;
	tl->width_ns *= 2;
}

/* Makes bucket idx (< GT_TIMELINE_BUCKETS) exist; new buckets hold the
 * levels of the previous call and no events. */
static void extend_to(struct gt_timeline *tl, size_t idx)
{
	if (idx < tl->n)
		return;
	if (idx >= tl->cap) {
		size_t cap = tl->cap ? tl->cap : 64;
		while (cap <= idx)
			cap *= 2;
		if (cap > GT_TIMELINE_BUCKETS)
			cap = GT_TIMELINE_BUCKETS;
		tl->b = gt_xrealloc(tl->b, cap * sizeof(*tl->b));
		tl->cap = cap;
	}
	for (size_t i = tl->n; i <= idx; i++) {
		memset(&tl->b[i], 0, sizeof(tl->b[i]));
		tl->b[i].heap_bytes = tl->held_heap;
		tl->b[i].mapped_bytes = tl->held_mapped;
		tl->b[i].pack_bytes = tl->held_pack;
	}
	tl->n = idx + 1;
}

void gt_timeline_note(struct gt_timeline *tl, uint64_t origin_ns, uint64_t t,
		      const struct gt_heap *h, const struct gt_maps *m, int map_call)
{
	if (!tl->started) {
		tl->started = 1;
		tl->origin_ns = origin_ns;
	}
	uint64_t since = t > tl->origin_ns ? t - tl->origin_ns : 0;
	uint64_t idx = tl->n - 1;
	/* Most calls fall in the latest call's bucket: no division for them. */
	if (!tl->n || since < idx * tl->width_ns || since >= tl->n * tl->width_ns) {
		idx = since / tl->width_ns;
		while (idx >= GT_TIMELINE_BUCKETS) {
			merge_pairs(tl);
			idx = since / tl->width_ns;
		}
		extend_to(tl, (size_t)idx);
	}

	struct gt_timeline_bucket *b = &tl->b[idx];
	b->heap_bytes = max_u64(b->heap_bytes, h->current_bytes);
	b->mapped_bytes = max_u64(b->mapped_bytes, m->mapped_bytes);
	b->pack_bytes = max_u64(b->pack_bytes, m->pack_mapped_bytes);
	tl->held_heap = h->current_bytes;
	tl->held_mapped = m->mapped_bytes;
	tl->held_pack = m->pack_mapped_bytes;
	b->allocations = add_sat(b->allocations, h->allocations - tl->seen_allocations);
	tl->seen_allocations = h->allocations;
	if (!map_call)
		return;
	for (int k = 0; k < GT_MAP_KIND_COUNT; k++) {
		uint64_t maps = m->kind[k].mmaps + m->kind[k].mremaps;
		b->mmaps[k] = add_sat(b->mmaps[k], maps - tl->seen_mmaps[k]);
		b->munmaps[k] = add_sat(b->munmaps[k], m->kind[k].munmaps - tl->seen_munmaps[k]);
		tl->seen_mmaps[k] = maps;
		tl->seen_munmaps[k] = m->kind[k].munmaps;
	}
}

size_t gt_timeline_page_points(size_t drawn)
{
	size_t share = drawn ? GT_TIMELINE_PAGE_POINTS / drawn : GT_TIMELINE_BUCKETS;
	return share < GT_TIMELINE_PAGE_MIN_POINTS ? GT_TIMELINE_PAGE_MIN_POINTS : share;
}

void gt_timeline_fit(struct gt_timeline *tl, size_t max)
{
	while (tl->n > max)
		merge_pairs(tl);
	if (tl->cap > tl->n && tl->n) {
		/*
		 * A copy, not realloc: shrunk in place, the array would leave its
		 * tail as a hole beside what stays, and the holes of thousands of
		 * short processes added up with how long each ran.
		 */
		struct gt_timeline_bucket *b = gt_xmalloc(tl->n * sizeof(*b));
		memcpy(b, tl->b, tl->n * sizeof(*b));
		free(tl->b);
		tl->b = b;
		tl->cap = tl->n;
	}
}

void gt_timeline_release(struct gt_timeline *tl)
{
	free(tl->b);
	memset(tl, 0, sizeof(*tl));
}
