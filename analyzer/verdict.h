/*
 * The verdict: allocator-bound, window-bound or neither, computed from
 * measured time shares and git-aware map facts, with the evidence that led
 * there and suggestions a user can act on. Pure computation over a small
 * input struct, so it is unit-tested without a trace.
 *
 * Thresholds (docs/report.md, "Verdict"):
 *   allocator-bound: allocator share >= GT_ALLOCATOR_SHARE_MIN and larger
 *     than the map share;
 *   window-bound: map share >= GT_MAP_SHARE_MIN, larger than the allocator
 *     share, and pack windows are the bulk of map calls (>= GT_PACK_BULK_MIN
 *     of mmap+munmap calls) or the thrash ratio is >= GT_THRASH_HIGH;
 *   else neither.
 */
#ifndef GT_VERDICT_H
#define GT_VERDICT_H

#include <stddef.h>
#include <stdint.h>

#define GT_ALLOCATOR_SHARE_MIN 0.50
#define GT_MAP_SHARE_MIN       0.10
#define GT_PACK_BULK_MIN       0.50
#define GT_THRASH_HIGH	       2.0

enum gt_verdict_class {
	GT_VERDICT_NEITHER = 0,
	GT_VERDICT_ALLOCATOR = 1,
	GT_VERDICT_WINDOW = 2,
};

extern const char *const gt_verdict_class_names[3]; /* "neither", … */

struct gt_verdict_input {
	double cpu_seconds;    /* the program's own CPU time (tracer's removed);
				  0: unknown (no END), wall_seconds is used instead */
	double tracer_seconds; /* the tracer's own time, left out of cpu_seconds */
	double system_seconds; /* kernel CPU time of the program (0: unknown) */
	uint64_t capped_calls; /* calls measured implausibly long (model.c) */
	double capped_seconds; /* the time cut off them */
	double wall_seconds;
	double allocator_seconds, mmap_seconds;
	uint64_t allocations, temporary;
	uint64_t map_calls;		   /* mmap + munmap + mremap calls */
	uint64_t pack_mmaps, pack_munmaps; /* maps/unmaps of pack windows */
	uint64_t pack_regions;		   /* distinct pack (file, offset, length) */
	uint64_t loose_mmaps;
	uint64_t window;		      /* inferred window, 0 unknown */
	uint64_t max_pack_map;		      /* longest pack map seen */
	uint64_t evictions;		      /* LRU unmaps of pack windows */
	uint64_t limit_at_least, limit_below; /* limit_below UINT64_MAX: none */
	const char *const *env;		      /* allocator-relevant NAME=value */
	size_t envc;
	const char *command;	      /* the traced command, shell-quoted; NULL unknown */
	const char *const *top_sites; /* function names, most churning first */
	size_t ntop_sites;
};

struct gt_verdict {
	enum gt_verdict_class cls;
	double allocator_share, mmap_share; /* of CPU (or wall) time, 0..1 */
	double window_bound;		    /* (mmap time + system time) share, at most 1 */
	int shares_of_wall;		    /* 1: no CPU time known, shares of wall */
	char **evidence, **suggestions;	    /* owned strings */
	size_t nevidence, nsuggestions;
	char *headline; /* the one thing to do, one line */
};

void gt_verdict_compute(struct gt_verdict *v, const struct gt_verdict_input *in);
void gt_verdict_release(struct gt_verdict *v);

/* "1.5 GiB", "128 MiB", "4 KiB", "12 B": exact when a whole unit. */
void gt_format_bytes(char *buf, size_t size, uint64_t bytes);

#endif /* GT_VERDICT_H */
