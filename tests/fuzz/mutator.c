/*
 * libFuzzer custom mutator for trace files. Blocks are zstd frames with a
 * content checksum, so a mutation of the compressed bytes almost always
 * just fails the checksum in the reader: the records, the model and the
 * reports behind it would hardly be fuzzed. So most mutations go to the
 * records of one block: decompressed, mutated by libFuzzer's own mutator,
 * recompressed as the preload writes them, with the block header's sizes
 * and record count made to match. The rest mutate the file's bytes as
 * they are, which is what the reader's own checks need.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "gittrace/format.h"

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);

/* One mutation in RAW_ONE_IN is of the file's bytes as they are. */
#define RAW_ONE_IN 5
/* Records of a mutated block grow to at most this (fuzzing wants small). */
#define MAX_RAW 65536

/* Where one whole block lies in the file. */
struct block_span {
	size_t off, hsize; /* block start; header frame content size */
	uint32_t frame_size, raw_size;
};

static uint64_t rng;

static uint64_t next_random(void)
{
	/* xorshift64: the mutation must depend on libFuzzer's seed alone. */
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/*
 * Finds the n-th whole block, counting from 0, walking the block headers
 * from the start of the file. Returns 0 if the file has no such block (it
 * is shorter, or not a sequence of blocks up to there).
 */
static int find_block(const uint8_t *d, size_t size, size_t n, struct block_span *s)
{
	size_t off = 0;
	for (size_t i = 0;; i++) {
		if (size - off < GT_SKIPPABLE_PREFIX_SIZE ||
		    gt_get_le32(d + off) != GT_SKIPPABLE_MAGIC)
			return 0;
		size_t hsize = gt_get_le32(d + off + 4);
		size_t head = GT_SKIPPABLE_PREFIX_SIZE + hsize;
		if (hsize < GT_BLOCK_HEADER_SIZE || size - off < head)
			return 0;
		struct gt_block_header h;
		gt_block_header_decode(d + off + GT_SKIPPABLE_PREFIX_SIZE, &h);
		if (size - off - head < h.frame_size)
			return 0;
		if (i == n) {
			*s = (struct block_span){off, hsize, h.frame_size, h.raw_size};
			return 1;
		}
		off += head + h.frame_size;
	}
}

static size_t count_blocks(const uint8_t *d, size_t size)
{
	struct block_span s;
	size_t n = 0;
	while (find_block(d, size, n, &s))
		n++;
	return n;
}

/*
 * Counts the records in raw (tag, ULEB128 length, body). Returns the
 * count, or the header's old count if the records do not fill raw exactly:
 * then the reader's own check of the count is what gets exercised.
 */
static uint32_t count_records(const uint8_t *raw, size_t n, uint32_t old)
{
	uint32_t count = 0;
	size_t pos = 0;
	while (pos < n) {
		struct gt_cursor c = {raw + pos + 1, raw + n, 1};
		uint64_t len = gt_get_uv(&c);
		if (!c.ok || len > (uint64_t)(c.end - c.p))
			return old;
		pos = (size_t)(c.p - raw) + (size_t)len;
		count++;
	}
	return count;
}

/* Mutates the records of block s in place; returns the new file size, 0 if
 * it could not (not zstd, too big for max_size). */
static size_t mutate_block(uint8_t *d, size_t size, size_t max_size, const struct block_span *s)
{
	const uint8_t *frame = d + s->off + GT_SKIPPABLE_PREFIX_SIZE + s->hsize;
	size_t result = 0;
	uint8_t *raw = malloc(MAX_RAW);
	size_t n = ZSTD_decompress(raw, MAX_RAW, frame, s->frame_size);
	if (ZSTD_isError(n))
		goto out;
	n = LLVMFuzzerMutate(raw, n, MAX_RAW);

	size_t cap = ZSTD_compressBound(n);
	uint8_t *z = malloc(cap);
	ZSTD_CCtx *cctx = ZSTD_createCCtx();
	ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1);
	size_t zn = ZSTD_compress2(cctx, z, cap, raw, n);
	ZSTD_freeCCtx(cctx);
	size_t frame_at = (size_t)(frame - d), tail_at = frame_at + s->frame_size;
	size_t new_size = frame_at + zn + (size - tail_at);
	if (!ZSTD_isError(zn) && new_size <= max_size) {
		uint8_t *h = d + s->off + GT_SKIPPABLE_PREFIX_SIZE;
		gt_put_le32(h + 24, (uint32_t)zn);
		gt_put_le32(h + 28, (uint32_t)n);
		gt_put_le32(h + 32, count_records(raw, n, gt_get_le32(h + 32)));
		memmove(d + frame_at + zn, d + tail_at, size - tail_at);
		memcpy(d + frame_at, z, zn);
		result = new_size;
	}
	free(z);
out:
	free(raw);
	return result;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
	rng = (uint64_t)seed * 0x9e3779b97f4a7c15u | 1;
	size_t blocks = count_blocks(data, size);
	if (blocks && next_random() % RAW_ONE_IN) {
		struct block_span s;
		find_block(data, size, (size_t)(next_random() % blocks), &s);
		size_t n = mutate_block(data, size, max_size, &s);
		if (n)
			return n;
	}
	return LLVMFuzzerMutate(data, size, max_size);
}
