/*
 * The free/allocation race rule (format.h) as the model applies it to a
 * format 2.0 block: a free that started before an allocation of the same
 * address ended is the set-aside block's, judged by the end the trace
 * recorded, not by the duration capped for sums of time.
 */
#include "../check.h"
#include "model.h"
#include "reader.h"

#include <stdlib.h>

static uint8_t col[GT_COL_COUNT][256];
static size_t len[GT_COL_COUNT];
static uint32_t records;
static uint64_t prev_ns;

static void put_uv(enum gt_column c, uint64_t v)
{
	len[c] = (size_t)(gt_put_uv(col[c] + len[c], v) - col[c]);
}

static void thread(uint64_t serial)
{
	uint8_t body[2 * GT_UV_MAX];
	size_t n = (size_t)(gt_encode_thread_body(body, serial, 100 + serial) - body);
	col[GT_COL_RECORDS][len[GT_COL_RECORDS]++] = GT_REC_THREAD;
	put_uv(GT_COL_RECORDS, n);
	memcpy(col[GT_COL_RECORDS] + len[GT_COL_RECORDS], body, n);
	len[GT_COL_RECORDS] += n;
	records++;
}

/* A CALL at t (ns); timed if dur is not 0. */
static void call(enum gt_fn fn, uint64_t t, uint64_t dur, uint64_t size, uint64_t ptr)
{
	col[GT_COL_RECORDS][len[GT_COL_RECORDS]++] =
		(uint8_t)(GT_CALL_TOKEN | (dur ? GT_CALL_TIMED : 0) | fn);
	put_uv(GT_COL_TIME, gt_zigzag((int64_t)(t - prev_ns)));
	prev_ns = t;
	if (dur)
		put_uv(GT_COL_DURATION, dur);
	if (fn == GT_FN_MALLOC)
		put_uv(GT_COL_SIZE, size);
	put_uv(GT_COL_ADDR, ptr);
	records++;
}

int main(void)
{
	const uint64_t p = 0x5000, base = 1000000;
	/*
	 * Thread 1 allocates A at p; thread 2's malloc returns p too (B), taking
	 * 1 ms (preempted): longer than a 48-byte call is let count in sums of
	 * time. Thread 1's free of p started 0.5 ms into B's call and was
	 * recorded after it: it freed A, and B stays live.
	 */
	thread(1);
	call(GT_FN_MALLOC, base, 0, 16, p);
	thread(2);
	call(GT_FN_MALLOC, base + 100, 1000000, 48, p);
	thread(1);
	call(GT_FN_FREE, base + 500000, 0, 0, p);

	uint8_t raw[2048], *q = gt_put_uv(raw, GT_COL_COUNT_2);
	for (int c = 0; c < GT_COL_COUNT_2; c++)
		q = gt_put_uv(q, len[c]);
	for (int c = 0; c < GT_COL_COUNT_2; c++) {
		memcpy(q, col[c], len[c]);
		q += len[c];
	}
	struct gt_block b = {
		.h = {.magic = GT_BLOCK_MAGIC,
		      .major = 2,
		      .image_id = 7,
		      .pid = 7,
		      .raw_size = (uint32_t)(q - raw),
		      .records = records,
		      .base_ns = base},
		.raw = raw,
	};
	struct gt_model *m = gt_model_new();
	gt_model_feed(m, &b);
	gt_model_finish(m, 0);
	const struct gt_heap *h = &gt_model_image(m, 0)->heap;
	CHECK(h->allocations == 2);
	CHECK(h->untracked_frees == 0);
	/* B leaked, not A. */
	CHECK(h->leaked_allocations == 1);
	CHECK(h->leaked_bytes == 48);
	gt_model_free(m);
	return check_result("race");
}
