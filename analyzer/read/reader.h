/*
 * Reads a trace file block by block: validates each block's header,
 * decompresses its zstd frame and hands out the raw records. Memory stays
 * bounded by one block (GT_MAX_RAW_SIZE) whatever the file's size.
 *
 * Bad input (not a trace, corrupt block, newer major version) ends the
 * program through gt_die() with the offset of the problem. A torn last
 * block is not an error: the reader stops, warns once and remembers that
 * the trace is incomplete. Nor is a block torn mid-file with a block
 * header inside its frame (a process killed in its write, others writing
 * on): the reader warns and goes on at that header.
 */
#ifndef GT_READER_H
#define GT_READER_H

#include <stdint.h>

#include "gittrace/format.h"

struct gt_block {
	struct gt_block_header h;
	uint64_t offset;    /* file offset of the block's skippable prefix */
	const uint8_t *raw; /* h.raw_size bytes of records; valid until the next call */
};

struct gt_reader;

/* Opens path (dies with "cannot open" on failure). */
struct gt_reader *gt_reader_open(const char *path);

/*
 * Reads the next block into *b. Returns 1 with a block, 0 at the end of
 * the trace (clean end or torn tail). Dies on bad input.
 */
int gt_reader_next(struct gt_reader *r, struct gt_block *b);

/*
 * As gt_reader_next, but decompresses into *buf (of *cap bytes, replaced
 * by a larger one when too small), which the caller owns and frees: blocks
 * read into buffers of their own stay valid side by side.
 */
int gt_reader_next_into(struct gt_reader *r, struct gt_block *b, uint8_t **buf, size_t *cap);

/* 1 if the file ended inside a block (set once gt_reader_next returned 0), or a torn block was
 * skipped. */
int gt_reader_torn(const struct gt_reader *r);

/* Bytes consumed so far and the file's size (0 if unknown), for progress. */
uint64_t gt_reader_pos(const struct gt_reader *r);
uint64_t gt_reader_size(const struct gt_reader *r);

void gt_reader_close(struct gt_reader *r);

#endif /* GT_READER_H */
