/*
 * Map accounting for one process image: mmap/munmap/mremap counts and
 * bytes by kind, mapped and peak mapped bytes, regions mapped more than
 * once, and the facts git's pack windows reveal (window size, bounds on
 * core.packedGitLimit, thrash ratio). Memory grows with live mappings and
 * distinct mapped regions, not with the number of calls.
 */
#ifndef GT_MAPS_H
#define GT_MAPS_H

#include <stdint.h>

#include "intervals.h"
#include "mapkind.h"
#include "window_advice.h"

struct gt_region;

struct gt_kind_stats {
	uint64_t mmaps;	  /* successful maps of this kind */
	uint64_t munmaps; /* munmap calls that hit a mapping of this kind */
	uint64_t mremaps; /* mremap calls that moved/resized one */
	uint64_t bytes;	  /* bytes mapped (asked-for lengths) */
};

/*
 * What pack windows cost while they were mapped, from the thread's page
 * faults and kernel time read after each file map and unmap (format 1.2
 * USAGE). Between two readings, the faults and kernel time (less the map
 * call's own) are shared among the pack windows mapped at the time;
 * windows of a region mapped before ("again") would not have been
 * unmapped and faulted in anew under git's default limits. The kernel
 * times are net of the tracer's own system calls around the readings
 * (format.h, USAGE tracer_ns): a period's may go below 0, a sum rarely;
 * read them through gt_window_cost_system_ns.
 */
struct gt_window_cost {
	double faults;	      /* page faults, this kind's share */
	double system_ns;     /* kernel time outside map calls, this kind's share */
	double any_system_ns; /* kernel time of periods with one such window mapped */
};

/* A sum of kernel time of struct gt_window_cost: not below 0. */
static inline double gt_window_cost_system_ns(double sum)
{
	return sum > 0 ? sum : 0;
}

struct gt_maps {
	struct gt_intervals live;
	struct gt_kind_stats kind[GT_MAP_KIND_COUNT];
	uint64_t failed_calls;	    /* mmap/mremap returning MAP_FAILED, munmap returning -1 */
	uint64_t untracked_munmaps; /* successful munmaps that hit no traced mapping */
	uint64_t mapped_bytes, peak_mapped_bytes, peak_ns;
	uint64_t pack_mapped_bytes, peak_pack_mapped_bytes;
	uint64_t remapped_regions;	    /* maps of a (file, offset, length) mapped before */
	struct gt_window_cost first, again; /* windows of new regions / of regions mapped before */
	uint64_t again_calls_ns;	 /* in maps of regions mapped before, and evicting unmaps */
	uint64_t usage_periods;		 /* readings that had pack windows to share among */
	uint64_t live_first, live_again; /* pack windows mapped now */
	uint64_t period_first, period_again; /* the same before the last map call */
	uint64_t evict_run_ns;		     /* unmaps of the current run of pack unmaps */
	uint64_t distinct_pack_regions;
	struct gt_region *regions; /* uthash by (path_id, offset, length) */

	/* core.packedGitLimit bounds from LRU evictions (see maps.c). */
	uint64_t evictions;
	uint64_t limit_at_least; /* limit >= this (from evictions, or peak pack bytes) */
	uint64_t limit_below;	 /* limit < this; UINT64_MAX when no eviction was seen */
	int evicting;
	uint64_t evict_first_before, evict_last_before;

	/* git's window LRU replayed without a limit: the window advice (window_advice.h). */
	struct gt_window_sim unlimited;
};

void gt_maps_init(struct gt_maps *m);

/*
 * One successful or failed mmap. failed: result was MAP_FAILED. len is the
 * asked-for length (page_size rounds the live interval), t the call time.
 */
void gt_maps_mmap(struct gt_maps *m, uint64_t result, uint64_t len, uint64_t offset,
		  enum gt_map_kind kind, uint32_t path_id, int failed, uint64_t page_size,
		  uint64_t t, uint64_t dur_ns);
void gt_maps_munmap(struct gt_maps *m, uint64_t addr, uint64_t len, int failed, uint64_t page_size,
		    uint64_t dur_ns);
void gt_maps_mremap(struct gt_maps *m, uint64_t old_addr, uint64_t old_len, uint64_t new_len,
		    uint64_t result, int failed, uint64_t page_size, uint64_t t);

/*
 * Git's pack window size as the pack maps show it: the most common length
 * of pack maps, accepted only if some pack map starts at a nonzero offset
 * and every pack map offset is a multiple of half of it (git aligns
 * windows to window/2; a pack's last window may be shorter). Returns 0
 * when the trace does not show it (e.g. every pack fit in one window).
 */
uint64_t gt_maps_inferred_window(const struct gt_maps *m);

/* Pack maps ÷ distinct pack regions (0 if no pack maps). */
double gt_maps_thrash_ratio(const struct gt_maps *m);

/*
 * A thread's reading right after a map call: faults and kernel time since
 * its previous reading, and the time the tracer spent on its own system
 * calls around the previous reading (tracer_ns), taken off that kernel
 * time. The kernel time holds the map call's own: the kernel accounts it
 * in ticks, so one call's part cannot be taken out.
 */
void gt_maps_usage(struct gt_maps *m, uint64_t faults, uint64_t system_ns, uint64_t tracer_ns);

/* Ends the image: settles the no-eviction bound on the limit and the window model. */
void gt_maps_finish(struct gt_maps *m);
void gt_maps_release(struct gt_maps *m);
/*
 * Forgets the live mappings, the regions seen and the window model (an
 * image summarized and retired); keeps the counters. Later unmaps count as
 * untracked.
 */
void gt_maps_forget(struct gt_maps *m);

#endif /* GT_MAPS_H */
