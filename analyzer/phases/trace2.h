/*
 * git's trace2 event stream (GIT_TRACE2_EVENT, one JSON object a line;
 * git's Documentation/technical/api-trace2.txt), read into what phase
 * attribution needs: per session (one git process) its pid, its time span
 * and the innermost region of its main thread over time.
 *
 * Sessions are keyed by sid; a child's sid is its parent's sid, '/', its
 * own component, and every component ends in "-P<pid, 8 hex digits>" (git's
 * tr2_sid.c): the pid comes from the last component, since no event but
 * that carries it. Times are the events' "time" (UTC, microseconds), as
 * nanoseconds since the epoch.
 *
 * Regions of other threads than "main" are left out: git opens them in
 * worker threads that run inside a region of the main thread, and the
 * trace cannot tell git's thread names from its thread ids.
 */
#ifndef GT_TRACE2_H
#define GT_TRACE2_H

#include <stddef.h>
#include <stdint.h>
#include <uthash.h>

/* Row 0 of every phase table: time and calls outside every region. */
#define GT_TRACE2_OUTSIDE 0

/* From t_ns on (until the next segment or the session's end), row is innermost. */
struct gt_trace2_segment {
	uint64_t t_ns;
	uint32_t row;
};

struct gt_trace2_session {
	char *sid; /* key */
	uint32_t pid;
	int has_pid;
	uint64_t first_ns, last_ns; /* earliest and latest event */
	int exited;		    /* an "exit" or "atexit" event was seen */
	/* The process's start as git measured it ("start": time less t_abs); 0 if unknown. */
	uint64_t process_start_ns;
	struct gt_trace2_segment *segs; /* in time order */
	size_t nsegs, segs_cap;
	uint32_t *open; /* the main thread's open regions, outermost first */
	size_t nopen, open_cap;
	int matched; /* a call of a traced process fell inside it (phases.c) */
	UT_hash_handle hh;
};

/* A distinct (category, label) of a region: a row of the phase tables. */
struct gt_trace2_row {
	char *category, *label;
};

struct gt_trace2 {
	const char *path;
	struct gt_trace2_session *sessions; /* uthash by sid, in order of first event */
	size_t nsessions;
	struct gt_trace2_row *rows; /* rows[GT_TRACE2_OUTSIDE] is "(outside any region)" */
	size_t nrows, rows_cap;
};

/*
 * Reads the stream at path: a file, or a directory of them (git writes a
 * file per process into GIT_TRACE2_EVENT=DIR). Never dies on its content: an empty file, a
 * line that is not a trace2 event (damaged, cut, another program's) get
 * one warning line (gt_warnf) each kind, and what could be read is kept.
 * Dies only if the file cannot be opened or read. Returns the number of
 * sessions read.
 */
size_t gt_trace2_read(struct gt_trace2 *t, const char *path);

/*
 * Whether t_ns is within the session: from its first event to its last, or
 * on from its first when it never exited (cut short or killed: its process
 * went on, and a call then is still its).
 */
int gt_trace2_holds(const struct gt_trace2_session *s, uint64_t t_ns);

/* The innermost row of session s at time t_ns; GT_TRACE2_OUTSIDE outside its events' span. */
uint32_t gt_trace2_row_at(const struct gt_trace2_session *s, uint64_t t_ns);

/* "category:label" (just the label without a category), the way git's perf format names a region.
 */
void gt_trace2_row_name(char *buf, size_t size, const struct gt_trace2_row *r);

void gt_trace2_release(struct gt_trace2 *t);

#endif /* GT_TRACE2_H */
