/*
 * The HTML report's timeline data: each process's buckets (timeline.h) as
 * one array per series, for the page's script to draw.
 *
 *   {"width": seconds per bucket, "n": buckets, "start": seconds from the
 *    earliest image's start to this one's, "end": seconds from this
 *    image's start to its end (or last call),
 *    "heap", "mapped", "pack": highest level in each bucket (bytes),
 *    "allocations": count per bucket,
 *    "mmaps", "munmaps": {kind: count per bucket}}
 *
 * A series that is zero throughout is left out (the script reads a missing
 * series as zeros): most processes never map a pack, and the page stays
 * small.
 */
#include "report_html.h"

#include "mapkind.h"

enum field { F_HEAP, F_MAPPED, F_PACK, F_ALLOCATIONS, F_MMAPS, F_MUNMAPS };

static uint64_t value(const struct gt_timeline_bucket *b, enum field f, int kind)
{
	switch (f) {
	case F_HEAP:
		return b->heap_bytes;
	case F_MAPPED:
		return b->mapped_bytes;
	case F_PACK:
		return b->pack_bytes;
	case F_ALLOCATIONS:
		return b->allocations;
	case F_MMAPS:
		return b->mmaps[kind];
	case F_MUNMAPS:
		return b->munmaps[kind];
	}
	return 0;
}

static int all_zero(const struct gt_timeline *tl, enum field f, int kind)
{
	for (size_t i = 0; i < tl->n; i++)
		if (value(&tl->b[i], f, kind))
			return 0;
	return 1;
}

static void series(struct gt_json *j, const char *key, const struct gt_timeline *tl, enum field f,
		   int kind)
{
	if (all_zero(tl, f, kind))
		return;
	gt_json_key(j, key);
	gt_json_begin_array(j);
	for (size_t i = 0; i < tl->n; i++)
		gt_json_uint(j, value(&tl->b[i], f, kind));
	gt_json_end_array(j);
}

static void by_kind(struct gt_json *j, const char *key, const struct gt_timeline *tl, enum field f)
{
	gt_json_key(j, key);
	gt_json_begin_object(j);
	for (int k = 0; k < GT_MAP_KIND_COUNT; k++)
		series(j, gt_map_kind_names[k], tl, f, k);
	gt_json_end_object(j);
}

static void one(struct gt_json *j, const struct gt_image *img, uint64_t trace_start)
{
	const struct gt_timeline *tl = &img->timeline;
	uint64_t end = img->ended ? img->end.end_mono_ns : img->now_ns;
	gt_json_begin_object(j);
	gt_json_key(j, "width");
	gt_json_double(j, (double)tl->width_ns / 1e9);
	gt_json_key(j, "n");
	gt_json_uint(j, tl->n);
	gt_json_key(j, "start");
	gt_json_double(j, tl->started && tl->origin_ns > trace_start
				  ? (double)(tl->origin_ns - trace_start) / 1e9
				  : 0);
	gt_json_key(j, "end");
	gt_json_double(j, tl->started && end > tl->origin_ns ? (double)(end - tl->origin_ns) / 1e9
							     : 0);
	series(j, "heap", tl, F_HEAP, 0);
	series(j, "mapped", tl, F_MAPPED, 0);
	series(j, "pack", tl, F_PACK, 0);
	series(j, "allocations", tl, F_ALLOCATIONS, 0);
	by_kind(j, "mmaps", tl, F_MMAPS);
	by_kind(j, "munmaps", tl, F_MUNMAPS);
	gt_json_end_object(j);
}

void gt_html_timelines(struct gt_json *j, const struct gt_summary *s)
{
	uint64_t trace_start = UINT64_MAX;
	for (size_t i = 0; i < s->n; i++) {
		const struct gt_timeline *tl = &s->procs[i].img->timeline;
		if (tl->started && tl->origin_ns < trace_start)
			trace_start = tl->origin_ns;
	}
	gt_json_key(j, "timelines");
	gt_json_begin_array(j);
	for (size_t i = 0; i < s->n; i++)
		one(j, s->procs[i].img, trace_start);
	gt_json_end_array(j);
}
