/*
 * The HTML report's timeline data: each process's buckets (timeline.h) as
 * one array per series, for the page's script to draw.
 *
 *   {"width": seconds per bucket, "n": buckets, "start": seconds from the
 *    earliest image's start to this one's, "end": seconds from this
 *    image's start to its end (or last call),
 *    "heap", "mapped", "pack": highest level in each bucket (bytes),
 *    "allocations": count per bucket,
 *    "mmaps", "munmaps": {kind: count per bucket},
 *    "phases": trace2 regions as bands, when there are phases (report_html_phases.c)}
 *
 * A series that is zero throughout is left out (the script reads a missing
 * series as zeros): most processes never map a pack, and the page stays
 * small. So that a trace of many processes stays small too, each process
 * gets a share of the page's points (gt_timeline_page_points).
 */
#include "report_html.h"

#include "mapkind.h"

enum field { F_HEAP, F_MAPPED, F_PACK, F_ALLOCATIONS, F_MMAPS, F_MUNMAPS };

static uint64_t field(const struct gt_timeline_bucket *b, enum field f, int kind)
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

/* A run of buckets, merged as timeline.c merges them. */
struct group {
	const struct gt_timeline *tl;
	size_t size; /* buckets per point, a power of two */
	size_t n;    /* points */
};

/* Point i of a series: the highest level, or the sum of the events. */
static uint64_t value(const struct group *g, size_t i, enum field f, int kind)
{
	int level = f == F_HEAP || f == F_MAPPED || f == F_PACK;
	uint64_t v = 0;
	for (size_t k = i * g->size; k < (i + 1) * g->size && k < g->tl->n; k++) {
		uint64_t x = field(&g->tl->b[k], f, kind);
		v = level ? (x > v ? x : v) : v + x;
	}
	return v;
}

static void series(struct gt_json *j, const char *key, const struct group *g, enum field f,
		   int kind)
{
	size_t i = 0;
	while (i < g->n && !value(g, i, f, kind))
		i++;
	if (i == g->n)
		return;
	gt_json_key(j, key);
	gt_json_begin_array(j);
	for (i = 0; i < g->n; i++)
		gt_json_uint(j, value(g, i, f, kind));
	gt_json_end_array(j);
}

static void by_kind(struct gt_json *j, const char *key, const struct group *g, enum field f)
{
	gt_json_key(j, key);
	gt_json_begin_object(j);
	for (int k = 0; k < GT_MAP_KIND_COUNT; k++)
		series(j, gt_map_kind_names[k], g, f, k);
	gt_json_end_object(j);
}

static void one(struct gt_json *j, const struct gt_phases *ph, const struct gt_image *img,
		uint64_t trace_start, size_t max_points)
{
	const struct gt_timeline *tl = &img->timeline;
	uint64_t end = img->ended ? img->end.end_mono_ns : img->now_ns;
	struct group g = {tl, 1, tl->n};
	while (g.n > max_points) {
		g.size *= 2;
		g.n = (tl->n + g.size - 1) / g.size;
	}
	gt_json_begin_object(j);
	gt_json_key(j, "width");
	gt_json_double(j, (double)tl->width_ns * (double)g.size / 1e9);
	gt_json_key(j, "n");
	gt_json_uint(j, g.n);
	gt_json_key(j, "start");
	gt_json_double(j, tl->started && tl->origin_ns > trace_start
				  ? (double)(tl->origin_ns - trace_start) / 1e9
				  : 0);
	gt_json_key(j, "end");
	gt_json_double(j, tl->started && end > tl->origin_ns ? (double)(end - tl->origin_ns) / 1e9
							     : 0);
	series(j, "heap", &g, F_HEAP, 0);
	series(j, "mapped", &g, F_MAPPED, 0);
	series(j, "pack", &g, F_PACK, 0);
	series(j, "allocations", &g, F_ALLOCATIONS, 0);
	by_kind(j, "mmaps", &g, F_MMAPS);
	by_kind(j, "munmaps", &g, F_MUNMAPS);
	if (tl->started)
		gt_html_phase_bands(j, ph, img, tl->origin_ns);
	gt_json_end_object(j);
}

void gt_html_timelines(struct gt_json *j, const struct gt_summary *s)
{
	uint64_t trace_start = UINT64_MAX;
	size_t drawn = 0;
	for (size_t i = 0; i < s->n; i++) {
		const struct gt_timeline *tl = &s->procs[i].img->timeline;
		if (tl->started && tl->origin_ns < trace_start)
			trace_start = tl->origin_ns;
		drawn += tl->n > 0;
	}
	size_t max_points = gt_timeline_page_points(drawn);
	gt_json_key(j, "timelines");
	gt_json_begin_array(j);
	for (size_t i = 0; i < s->n; i++)
		one(j, s->phases, s->procs[i].img, trace_start, max_points);
	gt_json_end_array(j);
}
