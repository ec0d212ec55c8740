/* Which file the run writes to, opened safely (session.c). */
#ifndef GT_SESSION_H
#define GT_SESSION_H

#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

/* The run's trace file, as the session opened it; the writer owns it then. */
struct gt_trace_file {
	int fd;	   /* O_APPEND, at GT_FD_FLOOR or above */
	dev_t dev; /* its identity, to notice that the program */
	ino_t ino; /* closed the fd and reused the number */
};

/* Whether fd holds the run's file (file's device and inode); *st is fd's status. */
int gt_session_holds(const struct gt_trace_file *file, int fd, struct stat *st);

/*
 * Opens the run's trace file: the root of a run creates it (safely, see
 * session.c) and tells descendants through GITTRACE_SESSION; a descendant
 * opens the same file. Fills file. Returns 0; -1 after disabling tracing
 * with a warning, or quietly when an earlier process of the run could not
 * write the file. *origin is set to GT_ORIGIN_ROOT or EXEC. Not in a run
 * left untraced (gt_session_untraced).
 */
int gt_session_open(int *origin, struct gt_trace_file *file);

/*
 * GITTRACE_SESSION=+ (followed by anything: `gittrace` adds its pid) asks
 * that the program exec'd next begin a run of its own, as a root:
 * `gittrace` sets it for its command, which a traced shell (LD_PRELOAD
 * exported), or a traced run's process, may start. A process passes such
 * a request on as it is (exec_env.c), but the very one it began at, in
 * whose place it passes its own run on: a gittrace inside another's
 * command makes a request of its own.
 */
#define GT_SESSION_NEW '+'

/* Whether value ("GITTRACE_SESSION=..." or its value) is the one this image began at. */
int gt_session_began_at(const char *value);

/*
 * Reads the GITTRACE_SESSION this image began with: first thing at the
 * start, so that an image whose tracing stops there still knows the
 * request it began at (exec_env.c passes "-" on in its place).
 */
void gt_session_read(void);
/* What gt_session_read read: NULL for a root's (none, or a GT_SESSION_NEW request). */
const char *gt_session_given(void);

/*
 * Whether a process before this one left the run untraced
 * (GITTRACE_SESSION=-, gt_session_off): it warned for the whole run.
 */
int gt_session_untraced(void);

/*
 * "GITTRACE_SESSION=..." to add to the environment of a program this
 * process execs or spawns, or NULL before tracing started. gt_session_off
 * makes it "-": the run is untraced from here on.
 */
const char *gt_session_env(void);
void gt_session_off(void);

/*
 * gt_session_off for the calling process alone, in a process that shares
 * the tracer's memory with the one that owns it (a vfork child): the
 * owner's later programs stay in the run.
 */
void gt_session_off_in_this_process(void);

/* In a forked child: what gt_session_off_in_this_process marked was another process's. */
void gt_session_forked(void);

/* Keep the tracer's descriptors away from the low numbers a program juggles. */
#define GT_FD_FLOOR 700

/*
 * Moves fd to GT_FD_FLOOR or above (into the top quarter of the allowed
 * numbers if the limit is lower), close-on-exec, and returns the new
 * number; fd itself if that fails.
 */
int gt_fd_move_high(int fd);

/*
 * After the program closed the trace file's descriptor or put another
 * file on its number (which stays the program's): opens the run's file
 * again into file->fd, if the path still names that file. 0 if it does.
 */
int gt_session_reopen(struct gt_trace_file *file);

/*
 * Marks the run's file as one that cannot grow (disk full, size limit), so
 * processes started later stay untraced without warning again.
 */
void gt_session_mark_failed(const struct gt_trace_file *file);

#endif /* GT_SESSION_H */
