/*
 * Phases: each process's calls, allocations, bytes, temporary allocations,
 * allocator time and map calls attributed to the innermost trace2 region
 * (trace2.h) open when the call was made, as the records stream by.
 *
 * Join: a trace2 session belongs to the trace's images of the same pid; a
 * call's monotonic time becomes wall-clock time through the IMAGE record's
 * start_realtime_ns, read beside start_ns, and falls in the session whose
 * span holds it. An image without a realtime reading is aligned by its
 * session's process start ("start" time less t_abs) instead: approximate,
 * and the report says so. Calls of other threads than the main one count
 * in the main thread's innermost region (trace2.h says why).
 *
 * Each CALL's effect is read off the model's counters (the change since
 * the image's previous CALL), so the rows of an image add up to its totals
 * exactly, "(outside any region)" included, with nothing kept per record.
 */
#ifndef GT_PHASES_H
#define GT_PHASES_H

#include <stdint.h>
#include <uthash.h>

#include "model.h"
#include "trace2.h"

/* What one row of a phase table counts. */
struct gt_phase_counts {
	uint64_t calls, allocations, bytes, temporary, allocator_ns, map_calls;
};

/* Per image: its sessions and the counts by row (the trace2 rows). */
struct gt_image_phases {
	uint64_t image_id;		     /* key */
	struct gt_trace2_session **sessions; /* of its pid: a run of gt_phases.by_pid */
	size_t nsessions;
	int matched;	 /* a call fell inside one of its sessions */
	int approximate; /* aligned by trace2's process start, not by the realtime clock */
	struct gt_phase_counts *rows, last; /* last: the image's counters at its previous call */
	size_t nrows;
	UT_hash_handle hh;
};

struct gt_phases {
	struct gt_trace2 t2;
	struct gt_trace2_session **by_pid; /* the sessions with a pid, by pid */
	size_t nby_pid;
	struct gt_image_phases *images; /* uthash by image id */
	struct gt_image_phases *noted;	/* the image gt_phases_note saw last */
};

/* One row of a process's phase table, for the writers. */
struct gt_phase_row {
	const struct gt_trace2_row *name;
	double seconds; /* wall time with this row innermost (outside: the rest of the image's) */
	struct gt_phase_counts counts;
};

/* Reads the trace2 stream at path (gt_trace2_read: warns, dies only if unreadable). */
void gt_phases_init(struct gt_phases *ph, const char *path);

/* Attributes r, if a CALL, right after the model applied it to img. */
void gt_phases_note(struct gt_phases *ph, const struct gt_image *img, const struct gt_record *r);

/* After the last block: warns once if no session matched the trace (another run's file). */
void gt_phases_finish(struct gt_phases *ph);

/*
 * The phase table of an image: its rows with any time or call, outside
 * first then in order of first appearance in the stream. Returns the
 * number of rows written to *rows (malloc'ed; free it), 0 when the image
 * matched no session (no phases). *approximate says how times were joined.
 */
size_t gt_phases_of(const struct gt_phases *ph, const struct gt_image *img,
		    struct gt_phase_row **rows, int *approximate);

/* A time span of an image with one region innermost, on the image's monotonic clock. */
struct gt_phase_band {
	uint64_t from_ns, to_ns;
	const struct gt_trace2_row *name;
};

/*
 * The image's spans inside a region, in time order (the HTML timelines'
 * bands). Returns how many were written to *bands (malloc'ed; free it).
 */
size_t gt_phases_bands(const struct gt_phases *ph, const struct gt_image *img,
		       struct gt_phase_band **bands);

void gt_phases_release(struct gt_phases *ph);

#endif /* GT_PHASES_H */
