/*
 * Per-image time series for the HTML report's timelines: live heap bytes,
 * allocations, mapped bytes and map events by kind, collected while the
 * trace streams past. Time is cut into equal buckets; when an image runs
 * past the last bucket, neighbouring buckets are merged in pairs and the
 * width doubles, so memory stays at most GT_TIMELINE_BUCKETS buckets per
 * image however long the image runs or however many calls it makes.
 */
#ifndef GT_TIMELINE_H
#define GT_TIMELINE_H

#include <stddef.h>
#include <stdint.h>

#include "heap.h"
#include "maps.h"

/* Most buckets an image keeps; even, so pairs merge evenly. */
#define GT_TIMELINE_BUCKETS 2000
/* Width of a bucket before any merge: 10 µs shows a process of a few
 * milliseconds in a few hundred buckets (so short images stay small), and
 * a 1000 s run needs only 16 doublings. */
#define GT_TIMELINE_FIRST_WIDTH_NS 10000u

struct gt_timeline_bucket {
	/* Highest levels reached during the bucket (a level is held through
	 * buckets without calls, so a gap shows the level, not zero). */
	uint64_t heap_bytes;   /* live heap bytes */
	uint64_t mapped_bytes; /* bytes of live traced maps */
	uint64_t pack_bytes;   /* of which pack windows */
	/* Events that happened in the bucket; saturate at UINT32_MAX. */
	uint32_t allocations;
	uint32_t mmaps[GT_MAP_KIND_COUNT];   /* successful mmaps and mremaps */
	uint32_t munmaps[GT_MAP_KIND_COUNT]; /* munmaps that hit a map of the kind */
};

struct gt_timeline {
	uint64_t origin_ns; /* time 0 of bucket 0 */
	uint64_t width_ns;  /* of every bucket */
	struct gt_timeline_bucket *b;
	size_t n; /* buckets in use: the last one holds the latest call */
	size_t cap;
	int started;
	/* Levels after the previous call: what a bucket without calls holds. */
	uint64_t held_heap, held_mapped, held_pack;
	/* The model's counters at the previous call: events are their deltas. */
	uint64_t seen_allocations;
	uint64_t seen_mmaps[GT_MAP_KIND_COUNT], seen_munmaps[GT_MAP_KIND_COUNT];
};

void gt_timeline_init(struct gt_timeline *tl);

/*
 * Records the state after one call at time t (CLOCK_MONOTONIC ns): the
 * heap and map levels, and the allocations and map events the call added
 * to h's and m's counters. origin_ns is the image's start (the first
 * call's time if unknown), read at the first call only. map_call says the
 * call was mmap, munmap or mremap (only then are the kind counters read).
 * A call timed before origin counts in the first bucket. Never fails
 * except for running out of memory (dies).
 */
void gt_timeline_note(struct gt_timeline *tl, uint64_t origin_ns, uint64_t t,
		      const struct gt_heap *h, const struct gt_maps *m, int map_call);

void gt_timeline_release(struct gt_timeline *tl);

/*
 * The HTML page's rule, here because the loader fits retired images'
 * timelines by it (gt_timeline_fit). The page draws at most
 * GT_TIMELINE_PAGE_POINTS buckets in all, so
 * that a trace of many processes makes a small page: each process with
 * buckets gets an equal share, at least GT_TIMELINE_PAGE_MIN_POINTS, its
 * buckets merged in groups of a power of two to fit, as the model merges
 * them. gt_timeline_page_points is that share when drawn processes have
 * buckets.
 */
#define GT_TIMELINE_PAGE_POINTS	    64000
#define GT_TIMELINE_PAGE_MIN_POINTS 128
size_t gt_timeline_page_points(size_t drawn);

/*
 * Merges buckets in pairs until at most max are left (max >= 1), and
 * frees the room beyond them. Drawn at max or fewer points, the timeline
 * looks the same as before: a retired image's can be fitted to the share
 * of the processes drawn so far, which only shrinks.
 */
void gt_timeline_fit(struct gt_timeline *tl, size_t max);

#endif /* GT_TIMELINE_H */
