/* Full buffers of records to compressed blocks in the trace file (writer.c). */
#ifndef GT_WRITER_H
#define GT_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "gittrace/format.h"

struct gt_trace_file;

/* A run of a block's raw bytes: its column directory, or one column. */
struct gt_raw_piece {
	const uint8_t *p;
	size_t len;
};

/*
 * Compresses the n pieces, h->raw_size bytes in all, into one block (one
 * zstd frame) and appends it with a single write. Each piece from the
 * second on starts a zstd block of its own (the first, the directory's few
 * bytes, shares the first column's): a column's bytes are alike, and a zstd
 * block's entropy tables fitted to one column compress it better than
 * tables fitted to a mix of two (a tenth fewer bytes for the address
 * codes). On any failure tracing is disabled with one warning. Returns 0
 * on success, -1 on failure. Called with the stream lock held.
 */
int gt_writer_write_block(const struct gt_block_header *h, const struct gt_raw_piece *pieces,
			  unsigned n);
/* The same once tracing has stopped, for the stream's last block (gt_stream_give_back). */
int gt_writer_write_last_block(const struct gt_block_header *h, const struct gt_raw_piece *pieces,
			       unsigned n);

/*
 * Prepares the compressor for writing to file (which the writer owns from
 * then on); 0 or -1 (then tracing is disabled).
 */
int gt_writer_init(const struct gt_trace_file *file);
/*
 * Whether fd is the descriptor the writer writes the trace file through,
 * and still holds that file (one fstat). Any thread, any time.
 */
int gt_writer_holds(int fd);
/* In a forked child: the compressor state may be mid-use by a thread that
 * does not exist there. */
void gt_writer_reset_after_fork(void);
/* Frees the compressor and its output buffer: nothing is written after. */
void gt_writer_give_back(void);

#endif /* GT_WRITER_H */
