/*
 * What the reports print, derived from the model once: per process the
 * times, shares, named sites (merged by their symbolized stack), window
 * facts and verdict; totals and the verdict for the whole tree. Report
 * writers (text, JSON) only format this.
 */
#ifndef GT_SUMMARY_H
#define GT_SUMMARY_H

#include <stdint.h>
#include <uthash.h>

#include "model.h"
#include "symbolize.h"
#include "verdict.h"

struct gt_site {
	char *key;	/* the symbolized stack from the site frame outwards */
	char *function; /* the site frame's function (or module+0xoff, ?) */
	struct gt_frame *frames;
	size_t nframes;
	uint64_t allocations, bytes, temporary, leaked_allocations, leaked_bytes;
	UT_hash_handle hh;
};

struct gt_proc {
	const struct gt_image *img;
	double wall, cpu, allocator_s, mmap_s;
	double tracer_s; /* the tracer's own share of cpu */
	/*
	 * What time shares are shares of: the program's own CPU time (cpu less
	 * tracer_s) for an image that ended, else its wall time so far.
	 */
	double basis;
	uint64_t allocating_calls; /* calls of the malloc family except free */
	uint64_t window;
	double thrash;
	struct gt_site **sites; /* by allocations, descending */
	size_t nsites;
	struct gt_verdict verdict;
};

struct gt_totals {
	uint64_t calls[GT_FN_COUNT];
	uint64_t allocated_bytes, peak_bytes, temporary, leaked_allocations, leaked_bytes;
	uint64_t allocations, untracked_frees;
	double allocator_s, mmap_s, cpu, wall, tracer_s;
	uint64_t peak_mapped_bytes, remapped_regions;
	struct gt_kind_stats kind[GT_MAP_KIND_COUNT];
};

struct gt_summary {
	const struct gt_model *m;
	const char *path;
	struct gt_proc *procs; /* heaviest (CPU, then events) first */
	size_t n;
	struct gt_totals totals;
	struct gt_verdict verdict; /* for the tree */
	char *command;		   /* the command the user ran, shell-quoted */
	const char *const *stripped;
	size_t nstripped;
};

/* pid < 0: every process; else only images with that pid. */
void gt_summary_build(struct gt_summary *s, const struct gt_model *m, const char *path,
		      struct gt_symbolizer *sym, long pid);
void gt_summary_release(struct gt_summary *s);

#endif /* GT_SUMMARY_H */
