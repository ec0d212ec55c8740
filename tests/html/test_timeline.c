/*
 * Unit test of the timeline buckets behind the HTML report (analyzer/
 * timeline.c): levels held through quiet buckets, events counted where
 * they happen, calls before the origin, a long run merged down to at
 * most GT_TIMELINE_BUCKETS buckets with every event still counted, and a
 * timeline fitted to fewer.
 */
#include <string.h>

#include "../check.h"
#include "timeline.h"

static struct gt_heap h;
static struct gt_maps m;

static void quiet_buckets_hold_levels(void)
{
	struct gt_timeline tl;
	gt_timeline_init(&tl);
	uint64_t w = GT_TIMELINE_FIRST_WIDTH_NS;
	memset(&h, 0, sizeof(h));
	memset(&m, 0, sizeof(m));

	h.current_bytes = 100;
	h.allocations = 1;
	gt_timeline_note(&tl, 5000, 5000 + w / 2, &h, &m, 0);
	h.current_bytes = 40; /* a free */
	gt_timeline_note(&tl, 0, 5000 + w / 2 + 1, &h, &m, 0);
	h.current_bytes = 70;
	h.allocations = 3;
	gt_timeline_note(&tl, 0, 5000 + 3 * w + 1, &h, &m, 0);

	CHECK(tl.origin_ns == 5000); /* the first call's origin only */
	CHECK(tl.width_ns == w);
	CHECK(tl.n == 4);
	CHECK(tl.b[0].heap_bytes == 100); /* the highest level in the bucket */
	CHECK(tl.b[0].allocations == 1);
	CHECK(tl.b[1].heap_bytes == 40 && tl.b[2].heap_bytes == 40); /* held */
	CHECK(tl.b[1].allocations == 0 && tl.b[2].allocations == 0);
	CHECK(tl.b[3].heap_bytes == 70);
	CHECK(tl.b[3].allocations == 2);

	/* A call timed before the origin counts in the first bucket. */
	h.allocations = 4;
	gt_timeline_note(&tl, 0, 10, &h, &m, 0);
	CHECK(tl.b[0].allocations == 2);
	CHECK(tl.n == 4);
	gt_timeline_release(&tl);
}

static void map_events_by_kind(void)
{
	struct gt_timeline tl;
	gt_timeline_init(&tl);
	memset(&h, 0, sizeof(h));
	memset(&m, 0, sizeof(m));
	m.kind[GT_MAP_PACK].mmaps = 1;
	m.mapped_bytes = m.pack_mapped_bytes = 65536;
	gt_timeline_note(&tl, 0, 0, &h, &m, 1);
	m.kind[GT_MAP_PACK].munmaps = 1;
	m.mapped_bytes = m.pack_mapped_bytes = 0;
	gt_timeline_note(&tl, 0, 1, &h, &m, 1);
	m.kind[GT_MAP_PACK_METADATA].mremaps = 1; /* an mremap counts as a map */
	gt_timeline_note(&tl, 0, 2, &h, &m, 1);
	/* Counters moved by a call that is not a map call are not read. */
	m.kind[GT_MAP_LOOSE].mmaps = 5;
	gt_timeline_note(&tl, 0, 3, &h, &m, 0);

	CHECK(tl.n == 1);
	CHECK(tl.b[0].mmaps[GT_MAP_PACK] == 1);
	CHECK(tl.b[0].munmaps[GT_MAP_PACK] == 1);
	CHECK(tl.b[0].mmaps[GT_MAP_PACK_METADATA] == 1);
	CHECK(tl.b[0].mmaps[GT_MAP_LOOSE] == 0);
	CHECK(tl.b[0].mapped_bytes == 65536 && tl.b[0].pack_bytes == 65536);
	gt_timeline_release(&tl);
}

/* 10 s of calls every 10 µs, one allocation each, the heap growing and
 * one pack map every 100th call: merged to at most the bucket limit, and
 * nothing lost. */
static void long_run_merges(void)
{
	struct gt_timeline tl;
	gt_timeline_init(&tl);
	memset(&h, 0, sizeof(h));
	memset(&m, 0, sizeof(m));
	const uint64_t calls = 1000000, step = 10000, origin = 1000000;
	for (uint64_t i = 0; i < calls; i++) {
		h.allocations++;
		h.current_bytes = i % 1000 == 999 ? 1u << 30 : i;
		int map = i % 100 == 0;
		if (map)
			m.kind[GT_MAP_PACK].mmaps++;
		gt_timeline_note(&tl, origin, origin + i * step, &h, &m, map);
	}
	CHECK(tl.n <= GT_TIMELINE_BUCKETS);
	CHECK(tl.n > GT_TIMELINE_BUCKETS / 2);
	CHECK(tl.cap <= GT_TIMELINE_BUCKETS);
	CHECK(tl.width_ns % GT_TIMELINE_FIRST_WIDTH_NS == 0);
	uint64_t mult = tl.width_ns / GT_TIMELINE_FIRST_WIDTH_NS;
	CHECK((mult & (mult - 1)) == 0); /* doubled each time */
	CHECK(tl.n * tl.width_ns > (calls - 1) * step);
	CHECK((tl.n - 1) * tl.width_ns <= (calls - 1) * step);
	uint64_t allocations = 0, maps = 0, top = 0, spikes = 0;
	for (size_t i = 0; i < tl.n; i++) {
		allocations += tl.b[i].allocations;
		maps += tl.b[i].mmaps[GT_MAP_PACK];
		top = tl.b[i].heap_bytes > top ? tl.b[i].heap_bytes : top;
		spikes += tl.b[i].heap_bytes == 1u << 30;
	}
	CHECK(allocations == calls);
	CHECK(maps == calls / 100);
	CHECK(top == 1u << 30);
	/* A spike every 10 ms, in buckets narrower than that: each spike shows
	 * in a bucket of its own, and in the next one too when the next call
	 * (which ends it) falls there: a bucket starts at the held level. */
	CHECK(tl.width_ns < 1000 * step);
	CHECK(spikes >= calls / 1000 && spikes <= 2 * calls / 1000);
	gt_timeline_release(&tl);
}

/*
 * Fitting a timeline to fewer buckets (a retired image's, to its share of
 * the page) merges groups of a power of two: highest levels, summed events,
 * the width multiplied. Calls after the fit land where they would have.
 */
static void fit_merges_groups(void)
{
	struct gt_timeline tl;
	gt_timeline_init(&tl);
	memset(&h, 0, sizeof(h));
	memset(&m, 0, sizeof(m));
	const uint64_t w = GT_TIMELINE_FIRST_WIDTH_NS, buckets = 1000;
	for (uint64_t i = 0; i < buckets; i++) {
		h.allocations += i % 3;
		h.current_bytes = (i * 7919) % 1000; /* levels in no order */
		gt_timeline_note(&tl, 0, i * w, &h, &m, 0);
	}
	CHECK(tl.n == buckets);
	struct gt_timeline_bucket before[1000];
	memcpy(before, tl.b, sizeof(before));

	gt_timeline_fit(&tl, 100); /* 1000 -> 500 -> 250 -> 125 -> 63 */
	CHECK(tl.n == 63);
	CHECK(tl.cap == tl.n);
	CHECK(tl.width_ns == 16 * w);
	for (size_t g = 0; g < tl.n; g++) {
		uint64_t level = 0, events = 0;
		for (size_t k = 16 * g; k < 16 * (g + 1) && k < buckets; k++) {
			level = before[k].heap_bytes > level ? before[k].heap_bytes : level;
			events += before[k].allocations;
		}
		CHECK(tl.b[g].heap_bytes == level);
		CHECK(tl.b[g].allocations == events);
	}
	gt_timeline_fit(&tl, 100); /* already fits: unchanged */
	CHECK(tl.n == 63 && tl.width_ns == 16 * w);

	h.allocations += 5;
	gt_timeline_note(&tl, 0, 1100 * w, &h, &m, 0);
	CHECK(tl.n == 1100 / 16 + 1);
	CHECK(tl.b[tl.n - 1].allocations == 5);
	gt_timeline_release(&tl);
}

int main(void)
{
	quiet_buckets_hold_levels();
	map_events_by_kind();
	long_run_merges();
	fit_merges_groups();
	return check_result("test_timeline");
}
