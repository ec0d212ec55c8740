/* The image's ordered record buffer (stream.c). */
#ifndef GT_STREAM_H
#define GT_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "gittrace/format.h"

struct rusage;

/*
 * Appends one CALL record for the calling thread: fn, its start time and
 * duration, the stack (captured here unless in counting mode) and the
 * arguments already encoded (args, args_len bytes: a few varints and at
 * most one path); then, if usage is not NULL, a USAGE record with it (the
 * thread's rusage right after the real call). A call that cannot fit an
 * empty buffer is counted as dropped. Called with the guard held.
 */
void gt_stream_call(enum gt_fn fn, uint64_t start_ns, uint64_t duration_ns, const uint8_t *args,
		    size_t args_len, const struct rusage *usage);

/*
 * Appends one record (tag + body) to the stream, flushing first if needed.
 * For image.c's IMAGE/MODULE/END records. Called with the guard held.
 */
void gt_stream_record(enum gt_record_tag tag, const uint8_t *body, size_t len);

/* Writes what the buffer holds now as a block. Called with the guard held. */
void gt_stream_flush(void);

/*
 * After the image's END record: every later call is written at once, so
 * that calls made by exit handlers or other threads after the end are not
 * lost. Cleared again by an exec that failed.
 */
void gt_stream_set_ended(int ended);

/* Sets up the stream for a new image (at start and in a forked child). */
int gt_stream_init(uint64_t image_id);
void gt_stream_reset_after_fork(uint64_t image_id);

/* Calls recorded and dropped by this image so far. */
uint64_t gt_stream_calls(void);
uint64_t gt_stream_drops(void);
/* Estimated time spent in the tracer so far (sampled, see stream.c). */
uint64_t gt_stream_tracer_ns(void);
uint32_t gt_stream_threads(void);

/*
 * Whether the calling process is the one the stream belongs to. Not so in
 * the child of a vfork (dash runs commands with vfork): it shares the
 * parent's memory until it execs or _exits, and must not end the parent's
 * image. One getpid(2): for exec and _exit, not for every call.
 */
int gt_stream_is_ours(void);

#endif /* GT_STREAM_H */
