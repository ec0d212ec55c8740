/*
 * The block reader: file → validated, decompressed blocks. See reader.h.
 */
#define _POSIX_C_SOURCE 200809L
#include "reader.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zstd.h>

#include "die.h"

/* A header frame larger than this is not one a future MINOR would write. */
#define MAX_HEADER_FRAME 4096
/* Blocks torn mid-file a trace may have (skip_torn). */
#define GT_TORN_BLOCKS_MAX 256

struct gt_reader {
	FILE *f;
	const char *path;
	uint64_t pos;
	uint64_t size;
	int torn;
	uint64_t skipped;     /* blocks torn mid-file (skip_torn) */
	unsigned first_major; /* the first block's; 0 before it */
	ZSTD_DCtx *dctx;
	uint8_t *frame;
	size_t frame_cap;
	uint8_t *raw;
	size_t raw_cap;
};

struct gt_reader *gt_reader_open(const char *path)
{
	struct gt_reader *r = gt_xcalloc(1, sizeof(*r));
	r->path = path;
	r->f = fopen(path, "rbe"); /* not inherited by the git config lookups */
	if (!r->f)
		gt_die("cannot open '%s': %s", path, strerror(errno));
	struct stat st;
	if (fstat(fileno(r->f), &st) == 0 && S_ISREG(st.st_mode))
		r->size = (uint64_t)st.st_size;
	else if (S_ISDIR(st.st_mode))
		gt_die("cannot read '%s': Is a directory", path);
	r->dctx = ZSTD_createDCtx();
	if (!r->dctx)
		gt_die("out of memory (zstd context)");
	return r;
}

/* Reads up to n bytes; returns how many (short only at end of file). */
static size_t read_some(struct gt_reader *r, void *buf, size_t n)
{
	size_t got = fread(buf, 1, n, r->f);
	if (got < n && ferror(r->f))
		gt_die("cannot read '%s' at offset %llu: %s", r->path,
		       (unsigned long long)(r->pos + got), strerror(errno));
	r->pos += got;
	return got;
}

/*
 * A torn tail: what is before it stays readable. A trace torn in its
 * first block has nothing readable, which is an error rather than a
 * report of no processes.
 */
static void torn(struct gt_reader *r, uint64_t block_off, uint64_t got, uint64_t want)
{
	if (block_off == 0)
		gt_die("'%s' was cut short in its first block (%llu of %llu bytes): nothing to "
		       "report",
		       r->path, (unsigned long long)got, (unsigned long long)want);
	r->torn = 1;
	gt_warnf("trace cut short at offset %llu: read %llu of %llu bytes of the last block",
		 (unsigned long long)block_off, (unsigned long long)got, (unsigned long long)want);
}

/*
 * Where a block header starts in frame (n bytes) past its first byte, if
 * the bytes before it are no whole zstd frame: the signature of a block
 * whose process died while writing it (kill -9, the OOM killer end a
 * write() part way), with the blocks that other processes of the run
 * appended after it (0: its write stopped at the end of its header).
 * SIZE_MAX if there is none: damage, not a tear.
 */
static size_t tear_in(const uint8_t *frame, size_t n)
{
	uint8_t magic[4];
	gt_put_le32(magic, GT_SKIPPABLE_MAGIC);
	for (size_t i = 0; i + GT_SKIPPABLE_PREFIX_SIZE + 4 <= n; i++) {
		const uint8_t *p = frame + i;
		if (memcmp(p, magic, 4) != 0)
			continue;
		uint32_t hsize = gt_get_le32(p + 4);
		if (hsize >= GT_BLOCK_HEADER_SIZE && hsize <= MAX_HEADER_FRAME &&
		    gt_get_le32(p + GT_SKIPPABLE_PREFIX_SIZE) == GT_BLOCK_MAGIC)
			return ZSTD_isError(ZSTD_findFrameCompressedSize(frame, i)) ? i : SIZE_MAX;
	}
	return SIZE_MAX;
}

/*
 * Goes on at the block header found at offset next inside the torn block
 * at block_off: the blocks after it are other processes' and stay
 * readable, and the torn block's process, which died, misses its last.
 * 0 if the file cannot go back there (a pipe).
 */
static int skip_torn(struct gt_reader *r, uint64_t block_off, uint64_t next)
{
	/* A run tears a block per process killed in its write, not thousands:
	 * more is crafted input, which each skip would read again. */
	if (r->skipped >= GT_TORN_BLOCKS_MAX)
		gt_die("corrupt trace: more than %d torn blocks, the last at offset %llu",
		       GT_TORN_BLOCKS_MAX, (unsigned long long)block_off);
	if (fseeko(r->f, (off_t)next, SEEK_SET) != 0)
		return 0;
	r->pos = next;
	r->skipped++;
	gt_warnf("block at offset %llu torn: its process died while writing it; its %llu bytes "
		 "skipped, the trace goes on at offset %llu",
		 (unsigned long long)block_off, (unsigned long long)(next - block_off),
		 (unsigned long long)next);
	return 1;
}

/* Names what a file that does not start with a block header looks like. */
static _Noreturn void not_a_trace(struct gt_reader *r, const uint8_t *p, size_t n)
{
	if (n >= 2 && p[0] == 0x1f && p[1] == 0x8b)
		gt_die("'%s' is a gzip file, not a gittrace trace (offset 0)", r->path);
	if (n >= 4 && gt_get_le32(p) == ZSTD_MAGICNUMBER)
		gt_die("'%s' is a plain zstd file, not a gittrace trace (offset 0)", r->path);
	gt_die("'%s' is not a gittrace trace: no block header at offset 0", r->path);
}

static uint8_t *reserve(uint8_t **buf, size_t *cap, size_t n)
{
	if (*cap < n) {
		free(*buf);
		*buf = NULL; /* a die hook may carry on: the caller frees *buf */
		*cap = 0;
		*buf = gt_xmalloc(n);
		*cap = n;
	}
	return *buf;
}

int gt_reader_next(struct gt_reader *r, struct gt_block *b)
{
	return gt_reader_next_into(r, b, &r->raw, &r->raw_cap);
}

/* gt_reader_next_into's block: 1, 0 at the end, -1 for a torn block skipped. */
static int next_block(struct gt_reader *r, struct gt_block *b, uint8_t **buf, size_t *cap)
{
	uint8_t pre[GT_SKIPPABLE_PREFIX_SIZE + MAX_HEADER_FRAME];
	uint64_t off = r->pos;
	const uint64_t min_block = GT_SKIPPABLE_PREFIX_SIZE + GT_BLOCK_HEADER_SIZE;

	if (r->torn)
		return 0;
	size_t got = read_some(r, pre, GT_SKIPPABLE_PREFIX_SIZE);
	if (got == 0) {
		if (off == 0)
			gt_die("'%s' is empty, not a gittrace trace", r->path);
		return 0;
	}
	/* A partial prefix is a torn tail only if what is there matches. */
	uint8_t magic[4];
	gt_put_le32(magic, GT_SKIPPABLE_MAGIC);
	if (memcmp(pre, magic, got < 4 ? got : 4) != 0) {
		if (off == 0)
			not_a_trace(r, pre, got);
		gt_die("corrupt trace: no block header at offset %llu", (unsigned long long)off);
	}
	if (got < GT_SKIPPABLE_PREFIX_SIZE) {
		torn(r, off, got, min_block);
		return 0;
	}
	uint32_t hsize = gt_get_le32(pre + 4);
	if (hsize < GT_BLOCK_HEADER_SIZE || hsize > MAX_HEADER_FRAME) {
		if (off == 0)
			gt_die("'%s' is not a gittrace trace: foreign skippable frame at offset 0",
			       r->path);
		gt_die("corrupt block header at offset %llu: header size %u",
		       (unsigned long long)off, hsize);
	}
	got = read_some(r, pre + GT_SKIPPABLE_PREFIX_SIZE, hsize);
	if (got < hsize) {
		/* The block magic is the first thing we can still check. */
		torn(r, off, GT_SKIPPABLE_PREFIX_SIZE + got, GT_SKIPPABLE_PREFIX_SIZE + hsize);
		return 0;
	}
	gt_block_header_decode(pre + GT_SKIPPABLE_PREFIX_SIZE, &b->h);
	b->offset = off;
	if (b->h.magic != GT_BLOCK_MAGIC) {
		if (off == 0)
			gt_die("'%s' is not a gittrace trace: foreign skippable frame at offset 0",
			       r->path);
		gt_die("corrupt block header at offset %llu: bad magic", (unsigned long long)off);
	}
	/* One run writes one format: a newer major after older blocks is damage. */
	if (b->h.major > GT_FORMAT_MAJOR && r->first_major)
		gt_die("corrupt block header at offset %llu: format %u.x among blocks of format "
		       "%u.x",
		       (unsigned long long)off, b->h.major, r->first_major);
	if (b->h.major > GT_FORMAT_MAJOR)
		gt_die("block at offset %llu has format %u.%u, newer than the %d.x this "
		       "gittrace-report reads; upgrade gittrace",
		       (unsigned long long)off, b->h.major, b->h.minor, GT_FORMAT_MAJOR);
	if (b->h.major == 0)
		gt_die("corrupt block header at offset %llu: format 0.%u", (unsigned long long)off,
		       b->h.minor);
	if (b->h.raw_size > GT_MAX_RAW_SIZE)
		gt_die("corrupt block header at offset %llu: raw size %u exceeds %u",
		       (unsigned long long)off, b->h.raw_size, GT_MAX_RAW_SIZE);
	if (b->h.frame_size == 0 || b->h.frame_size > ZSTD_compressBound(GT_MAX_RAW_SIZE))
		gt_die("corrupt block header at offset %llu: frame size %u",
		       (unsigned long long)off, b->h.frame_size);
	if (b->h.major >= 2 && b->h.time_shift > GT_MAX_TIME_SHIFT)
		gt_die("corrupt block header at offset %llu: time unit 2^%u ns",
		       (unsigned long long)off, b->h.time_shift);

	uint64_t head = GT_SKIPPABLE_PREFIX_SIZE + hsize;
	uint8_t *frame = reserve(&r->frame, &r->frame_cap, b->h.frame_size);
	got = read_some(r, frame, b->h.frame_size);
	if (got < b->h.frame_size) {
		/*
		 * A cut leaves part of a frame, which zstd finds incomplete; a
		 * whole one in what is there says the header's size is damaged,
		 * and the blocks after it are no tail to drop.
		 */
		size_t tear = tear_in(frame, got);
		if (tear != SIZE_MAX && skip_torn(r, off, off + head + tear))
			return -1;
		size_t whole = ZSTD_findFrameCompressedSize(frame, got);
		if (!ZSTD_isError(whole))
			gt_die("corrupt block header at offset %llu: frame size %u, but its zstd "
			       "frame ends after %zu bytes",
			       (unsigned long long)off, b->h.frame_size, whole);
		torn(r, off, head + got, head + b->h.frame_size);
		return 0;
	}
	uint64_t data_off = off + head;
	size_t fsz = ZSTD_findFrameCompressedSize(frame, b->h.frame_size), n = 0;
	uint8_t *raw = reserve(buf, cap, b->h.raw_size ? b->h.raw_size : 1);
	if (!ZSTD_isError(fsz) && fsz == b->h.frame_size)
		n = ZSTD_decompressDCtx(r->dctx, raw, b->h.raw_size, frame, b->h.frame_size);
	/* A torn frame may still parse: the next block's bytes complete it. */
	int bad = ZSTD_isError(fsz) || fsz != b->h.frame_size || ZSTD_isError(n) ||
		  n != b->h.raw_size;
	size_t tear = bad ? tear_in(frame, b->h.frame_size) : SIZE_MAX;
	if (tear != SIZE_MAX && skip_torn(r, off, data_off + tear))
		return -1;
	if (ZSTD_isError(fsz))
		gt_die("corrupt block at offset %llu: zstd: %s", (unsigned long long)data_off,
		       ZSTD_getErrorName(fsz));
	if (fsz != b->h.frame_size)
		gt_die("corrupt block at offset %llu: zstd frame is %zu bytes, header says %u",
		       (unsigned long long)data_off, fsz, b->h.frame_size);
	if (ZSTD_isError(n))
		gt_die("corrupt block at offset %llu: zstd: %s", (unsigned long long)data_off,
		       ZSTD_getErrorName(n));
	if (n != b->h.raw_size)
		gt_die("corrupt block at offset %llu: %zu bytes of records, header says %u",
		       (unsigned long long)data_off, n, b->h.raw_size);
	b->raw = raw;
	if (!r->first_major)
		r->first_major = b->h.major;
	return 1;
}

int gt_reader_next_into(struct gt_reader *r, struct gt_block *b, uint8_t **buf, size_t *cap)
{
	int got;
	while ((got = next_block(r, b, buf, cap)) < 0)
		;
	return got;
}

int gt_reader_torn(const struct gt_reader *r)
{
	return r->torn || r->skipped;
}

uint64_t gt_reader_pos(const struct gt_reader *r)
{
	return r->pos;
}

uint64_t gt_reader_size(const struct gt_reader *r)
{
	return r->size;
}

void gt_reader_close(struct gt_reader *r)
{
	if (!r)
		return;
	fclose(r->f);
	ZSTD_freeDCtx(r->dctx);
	free(r->frame);
	free(r->raw);
	free(r);
}
