/*
 * A trace's records, decoded on a thread of its own while the caller
 * applies them: reading a block, decompressing it and decoding its records
 * take a third of a report's time, and run beside the model this way.
 *
 * Batches come out in file order. What the decoding prints (the warning
 * of a torn tail, the error that ends it) is queued among them and printed
 * by the caller when it gets there, so output and exit status are those of
 * decoding in line. Memory stays bounded: GT_DECODER_BLOCKS blocks and
 * GT_DECODER_BATCHES batches at a time. If no thread can be started, the
 * caller's own calls decode.
 */
#ifndef GT_DECODER_H
#define GT_DECODER_H

#include <stddef.h>
#include <stdint.h>

#include "records.h"

/*
 * A call of the malloc family (but the aligned functions) as the model takes it, in one cache line:
 * the decoding thread writes it and the caller's thread reads it, and
 * whole records (272 bytes) cost more to hand over than decoding them in
 * line did. fn GT_FN_COUNT marks a record handed over whole instead.
 */
struct gt_heap_call {
	uint8_t fn, timed, sampled;
	int64_t dts;
	uint64_t dur_ns, stack, size, nmemb, ptr, result;
} __attribute__((aligned(64)));

/*
 * Some records of one block, in order: calls[i], or the next of whole
 * where calls[i].fn is GT_FN_COUNT. A block's first batch has none (first
 * set: begin the block before anything it may print); its last has last
 * set (possibly with no records either).
 */
struct gt_batch {
	const struct gt_block *b;
	uint64_t end; /* the file offset after its block, for progress */
	int first, last;
	size_t n;
	struct gt_heap_call *calls;
	struct gt_record *whole;
};

/* Walks a batch's records: gt_batch_record gives each as a whole record. */
struct gt_batch_cursor {
	size_t i, whole;
	struct gt_record call; /* a heap call, made whole */
};
void gt_batch_cursor_init(struct gt_batch_cursor *c);
/* The batch's next record (valid until the next call); NULL after the last. */
const struct gt_record *gt_batch_record(const struct gt_batch *b, struct gt_batch_cursor *c);

struct gt_decoder;

/* Opens path (dies as gt_reader_open) and starts decoding it. */
struct gt_decoder *gt_decoder_open(const char *path);

/*
 * Sets *out to the next batch, valid until the next call. Returns 0 at the
 * end of the trace. Dies on bad input, in file order.
 */
int gt_decoder_next(struct gt_decoder *d, const struct gt_batch **out);

/* 1 if the file ended inside a block (once gt_decoder_next returned 0). */
int gt_decoder_torn(const struct gt_decoder *d);

/* The file's size (0 if unknown), for progress. */
uint64_t gt_decoder_size(const struct gt_decoder *d);

/* Stops the thread and frees everything. NULL is fine. */
void gt_decoder_close(struct gt_decoder *d);

#endif /* GT_DECODER_H */
