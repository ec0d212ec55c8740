/* Full buffers of records to compressed blocks in the trace file (writer.c). */
#ifndef GT_WRITER_H
#define GT_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "gittrace/format.h"

struct gt_trace_file;

/*
 * Compresses raw_len bytes of records into one block and appends it with a
 * single write. On any failure tracing is disabled with one warning.
 * Returns 0 on success, -1 on failure. Called with the stream lock held.
 */
int gt_writer_write_block(const struct gt_block_header *h, const uint8_t *raw, size_t raw_len);

/*
 * Prepares the compressor for writing to file (which the writer owns from
 * then on); 0 or -1 (then tracing is disabled).
 */
int gt_writer_init(const struct gt_trace_file *file);
/* In a forked child: the compressor state may be mid-use by a thread that
 * does not exist there. */
void gt_writer_reset_after_fork(void);

#endif /* GT_WRITER_H */
