/*
 * make_bad_columns: writes one-block traces of this format whose columns
 * (format.h, "Columns", "Addresses") are damaged in one way each (a CALL
 * entry in the 1.x layout among them, a STACK deeper than a writer makes),
 * for the CLI tests: each must end in one clear line and exit status 1,
 * never a crash.
 *
 * Usage: make_bad_columns DIR   (writes DIR/columns-<case>.zst)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "gittrace/format.h"

/* How the malloc's result is written. */
enum result {
	RESULT_NEW,
	RESULT_REF_BEFORE_BLOCK,
	RESULT_NEW_WITHOUT_DELTA,
	RESULT_NOT_FREED,
	RESULT_NOT_FREED_NO_SIZE, /* the same, and no size: the size column ends early */
	RESULT_NEW_BAD_ENTRY,	  /* an odd new-address entry but 1 */
	RESULT_NEW_NULL,	  /* a new address of 0 */
};

/* One damage: how its block's raw bytes and header are made. */
struct damage {
	const char *name;
	uint64_t ncolumns;    /* in the directory */
	uint64_t time_len;    /* GT_COL_TIME's length in the directory */
	int extra_size_byte;  /* a byte in GT_COL_SIZE that no call reads */
	uint8_t token;	      /* the one record */
	uint32_t time_shift;  /* of the header */
	uint64_t claimed_len; /* GT_COL_SIZE's length as the directory says it */
	enum result result;
	unsigned stack_depth; /* a STACK record of this many frames first; 0: none */
};

/*
 * A malloc of 32 bytes at 0x1000: token, dts 0, size 32, result new (one
 * byte each) and its delta 0x1000 (two), laid out as the damage says. The
 * blocks' times are in ns (time_shift 0), where every call has a dts.
 */
static size_t make_raw(const struct damage *d, uint8_t *raw)
{
	uint8_t col[GT_COL_COUNT][GT_STACK_DEPTH_MAX + 16];
	size_t len[GT_COL_COUNT] = {0};
	if (d->stack_depth) { /* STACK id 1, every frame at 0x10 */
		uint8_t body[sizeof(col[0])], *end = gt_put_uv(gt_put_uv(body, 1), d->stack_depth);
		for (unsigned i = 0; i < d->stack_depth; i++)
			end = gt_put_uv(end, 0x10);
		uint8_t *p = col[GT_COL_RECORDS];
		*p++ = GT_REC_STACK;
		p = gt_put_uv(p, (uint64_t)(end - body));
		memcpy(p, body, (size_t)(end - body));
		len[GT_COL_RECORDS] = (size_t)(p - col[GT_COL_RECORDS]) + (size_t)(end - body);
	}
	col[GT_COL_RECORDS][len[GT_COL_RECORDS]++] = d->token;
	if (d->token == GT_REC_CALL) /* a 1.x CALL entry: tag, empty body */
		col[GT_COL_RECORDS][len[GT_COL_RECORDS]++] = 0;
	if (d->time_len)
		col[GT_COL_TIME][len[GT_COL_TIME]++] = 0;
	if (d->result != RESULT_NOT_FREED_NO_SIZE)
		col[GT_COL_SIZE][len[GT_COL_SIZE]++] = 32;
	if (d->extra_size_byte)
		col[GT_COL_SIZE][len[GT_COL_SIZE]++] = 7;
	col[GT_COL_RETURNED][len[GT_COL_RETURNED]++] =
		d->result == RESULT_REF_BEFORE_BLOCK ? GT_ADDR_RETURNED_REF(1)
		: d->result == RESULT_NOT_FREED || d->result == RESULT_NOT_FREED_NO_SIZE
			? GT_ADDR_FROM_FREED
			: GT_ADDR_NEW;
	uint8_t *new_addr = col[GT_COL_NEW_ADDR];
	if (d->result == RESULT_NEW)
		len[GT_COL_NEW_ADDR] = (size_t)(gt_put_new_addr(new_addr, 0x1000) - new_addr);
	if (d->result == RESULT_NEW_NULL)
		len[GT_COL_NEW_ADDR] = (size_t)(gt_put_new_addr(new_addr, 0) - new_addr);
	if (d->result == RESULT_NEW_BAD_ENTRY)
		len[GT_COL_NEW_ADDR] = (size_t)(gt_put_uv(new_addr, 3) - new_addr);
	uint8_t *p = gt_put_uv(raw, d->ncolumns);
	for (uint64_t c = 0; c < d->ncolumns; c++)
		p = gt_put_uv(p, c == GT_COL_SIZE && d->claimed_len ? d->claimed_len
				 : c < GT_COL_COUNT		    ? len[c]
								    : 0);
	for (int c = 0; c < GT_COL_COUNT; c++) {
		memcpy(p, col[c], len[c]);
		p += len[c];
	}
	return (size_t)(p - raw);
}

static int write_trace(const char *dir, const struct damage *d)
{
	uint8_t raw[1024], frame[2048];
	size_t raw_len = make_raw(d, raw);
	size_t fsz = ZSTD_compress(frame, sizeof(frame), raw, raw_len, 1);
	if (ZSTD_isError(fsz))
		return -1;
	struct gt_block_header h = {
		.magic = GT_BLOCK_MAGIC,
		.major = GT_FORMAT_MAJOR,
		.minor = GT_FORMAT_MINOR,
		.image_id = 0x2222,
		.pid = 22,
		.frame_size = (uint32_t)fsz,
		.raw_size = (uint32_t)raw_len,
		.records = d->stack_depth ? 2 : 1,
		.time_shift = d->time_shift,
		.base_ns = 1000,
	};
	uint8_t hb[GT_SKIPPABLE_PREFIX_SIZE + GT_BLOCK_HEADER_SIZE];
	gt_block_header_encode(hb, &h);
	char path[4096];
	snprintf(path, sizeof(path), "%s/columns-%s.zst", dir, d->name);
	FILE *f = fopen(path, "wb");
	if (!f)
		return -1;
	int ok = fwrite(hb, 1, sizeof(hb), f) == sizeof(hb) && fwrite(frame, 1, fsz, f) == fsz;
	return fclose(f) == 0 && ok ? 0 : -1;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: make_bad_columns DIR\n");
		return 2;
	}
	const uint8_t malloc_call = GT_CALL_TOKEN | GT_FN_MALLOC;
	const struct damage damages[] = {
		{"good", GT_COL_COUNT, 1, 0, malloc_call, 0, 0, RESULT_NEW, 0},
		{"few", GT_COL_COUNT - 1, 1, 0, malloc_call, 0, 0, RESULT_NEW, 0},
		{"past", GT_COL_COUNT, 1, 0, malloc_call, 0, 12, RESULT_NEW, 0},
		{"short", GT_COL_COUNT, 0, 0, malloc_call, 0, 0, RESULT_NEW, 0},
		{"left", GT_COL_COUNT, 1, 1, malloc_call, 0, 0, RESULT_NEW, 0},
		{"fn", GT_COL_COUNT, 1, 0, GT_CALL_TOKEN | GT_CALL_FN, 0, 0, RESULT_NEW, 0},
		{"shift", GT_COL_COUNT, 1, 0, malloc_call, GT_MAX_TIME_SHIFT + 1, 0, RESULT_NEW, 0},
		{"calltag", GT_COL_COUNT, 1, 0, GT_REC_CALL, 0, 0, RESULT_NEW, 0},
		{"ref", GT_COL_COUNT, 1, 0, malloc_call, 0, 0, RESULT_REF_BEFORE_BLOCK, 0},
		{"newaddr", GT_COL_COUNT, 1, 0, malloc_call, 0, 0, RESULT_NEW_WITHOUT_DELTA, 0},
		{"notfreed", GT_COL_COUNT, 1, 0, malloc_call, 0, 0, RESULT_NOT_FREED, 0},
		{"newentry", GT_COL_COUNT, 1, 0, malloc_call, 0, 0, RESULT_NEW_BAD_ENTRY, 0},
		{"newnull", GT_COL_COUNT, 1, 0, malloc_call, 0, 0, RESULT_NEW_NULL, 0},
		/* Its size (0) fails the freed block it takes: the column is the error. */
		{"nosize", GT_COL_COUNT, 1, 0, malloc_call, 0, 0, RESULT_NOT_FREED_NO_SIZE, 0},
		/* The deepest STACK a writer makes, and one frame more. */
		{"stackmax", GT_COL_COUNT, 1, 0, malloc_call, 0, 0, RESULT_NEW, GT_STACK_DEPTH_MAX},
		{"stackdeep", GT_COL_COUNT, 1, 0, malloc_call, 0, 0, RESULT_NEW,
		 GT_STACK_DEPTH_MAX + 1},
	};
	for (size_t i = 0; i < sizeof(damages) / sizeof(damages[0]); i++)
		if (write_trace(argv[1], &damages[i])) {
			perror(damages[i].name);
			return 1;
		}
	return 0;
}
