/*
 * Blocks handed to a thread of the tracer's own, which compresses and
 * writes them while the program goes on (writer_thread.c).
 */
#ifndef GT_WRITER_THREAD_H
#define GT_WRITER_THREAD_H

#include <stdint.h>

#include "writer.h"

/*
 * Has the block written (gt_writer_write_block): handed to the thread, or
 * written here if no thread runs and wait is set, or none can be started.
 * Returns once the block handed over before this one is written, so that
 * its buffer is free again; with wait set, once this one is too. The
 * pieces must stay as they are until then. Called with the stream lock
 * held: blocks are written in the order they come.
 */
void gt_writer_submit(const struct gt_block_header *h, const struct gt_raw_piece *pieces,
		      unsigned n, int wait);

/* Time spent compressing and writing blocks so far, in any thread (ns). */
uint64_t gt_writer_busy_ns(void);

/*
 * In a forked child: no thread writes for it, and the block its parent had
 * handed over is the parent's to write.
 */
void gt_writer_thread_reset_after_fork(void);

#endif /* GT_WRITER_THREAD_H */
