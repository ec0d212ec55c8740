/*
 * Two traces compared (--diff): processes matched by their command line,
 * sites by their symbolized frames, and the changes between them. Pure:
 * summaries in, matches and numbers out; the writers are report_diff.c.
 *
 * Processes match in two passes, each in order of first appearance in the
 * trace: first by the whole argv (the k-th `git log --raw` of BASE with
 * the k-th of NEW), then the rest by program and subcommand (argv[0] and
 * argv[1]), since git gives children argv that name temporary files
 * (`pack-objects ... .tmp-1234-pack`). What is left is in one trace only.
 * Sites match by the function names of their frames, from the site
 * outwards (no addresses, files or lines), so two builds of git compare.
 */
#ifndef GT_DIFF_H
#define GT_DIFF_H

#include <stdio.h>
#include <uthash.h>

#include "summary.h"

/* --fail-if-worse tripped (beside die.h's 1 bad input, 2 usage). */
#define GT_EXIT_WORSE 3

struct gt_diff_proc {
	const struct gt_proc *base, *new; /* NULL: only in the other trace */
};

struct gt_site_totals {
	uint64_t allocations, bytes, temporary;
};

struct gt_diff_site {
	char *key;		    /* the function names, ";"-joined */
	const struct gt_site *site; /* one of them, for its frames (new's if both) */
	struct gt_site_totals base, new;
	UT_hash_handle hh;
};

struct gt_diff {
	const struct gt_summary *base, *new;
	struct gt_diff_proc *procs; /* BASE's order, then NEW's processes only in NEW */
	size_t nprocs;
	struct gt_diff_site **sites; /* by |allocations change|, largest first */
	size_t nsites;
	struct gt_diff_site *by_key; /* uthash */
};

/* The base and new summaries must keep every site (keep_sites 0). */
void gt_diff_build(struct gt_diff *d, const struct gt_summary *base, const struct gt_summary *new);

/* What a process's numbers are, as --diff compares them. */
struct gt_diff_numbers {
	uint64_t calls, allocations, temporary, allocated_bytes, peak_bytes;
	double allocator_share;
	struct gt_kind_stats maps[GT_MAP_KIND_COUNT];
};
void gt_diff_numbers_of(const struct gt_proc *p, struct gt_diff_numbers *n);

/*
 * 1 if a matched process's allocations, temporary allocations, allocator
 * time share or pack-window maps grew by more than pct percent of their
 * base value (from 0, any growth counts); each such change is one line on
 * err ("gittrace-report: worse: ...").
 */
int gt_diff_worse(const struct gt_diff *d, double pct, FILE *err);

void gt_diff_release(struct gt_diff *d);

/* The writers (report_diff.c). top: sites to list (0 = all). */
void gt_report_diff_text(FILE *out, const struct gt_diff *d, size_t top);
void gt_report_diff_json(FILE *out, const struct gt_diff *d, size_t top);

#endif /* GT_DIFF_H */
