/*
 * Turns a full buffer of records into a block on disk: one zstd frame with
 * its checksum, behind a skippable frame holding the block header, written
 * on an O_APPEND descriptor from one buffer, so that blocks of the
 * processes of a run do not interleave (a regular file takes a whole
 * write(2) at once; should the kernel write less, the rest follows and the
 * reader rejects a block torn by another process's block as corrupt).
 *
 * Failure is never the program's problem: a short write, a full disk, a
 * file-size limit or a descriptor the program closed turns tracing off
 * with one warning, and what was written before stays readable.
 */
#include "writer.h"
#include "no_cancel.h"
#include "pages.h"
#include "quiet_write.h"
#include "session.h"
#include "settings.h"
#include "tracer.h"

#include <errno.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#define ZSTD_STATIC_LINKING_ONLY /* ZSTD_customMem: exported by the shared library too */
#include <zstd.h>
#include <zstd_errors.h>

/* zstd's working memory comes from gt_pages, never from the hooked malloc. */
static void *zstd_alloc(void *opaque, size_t size)
{
	(void)opaque;
	size_t *p = gt_pages(size + 16);
	if (!p)
		return NULL;
	p[0] = size + 16;
	return (uint8_t *)p + 16;
}

static void zstd_free(void *opaque, void *ptr)
{
	(void)opaque;
	if (!ptr)
		return;
	size_t *p = (size_t *)((uint8_t *)ptr - 16);
	gt_pages_free(p, p[0]);
}

static const ZSTD_customMem zstd_mem = {zstd_alloc, zstd_free, NULL};

static struct gt_trace_file file = {.fd = -1};
static ZSTD_CCtx *cctx;
static uint8_t *out; /* prefix + header + compressed frame */
static size_t out_cap;

#define GT_PREFIX (GT_SKIPPABLE_PREFIX_SIZE + GT_BLOCK_HEADER_SIZE)

/*
 * At the levels chosen for speed (the default 3 and below), zstd's two
 * hash tables are capped at 2^14 and 2^13 entries: 96 KiB, where level 3
 * sizes them for a 1 MiB block at 768 KiB. zstd touches them at random
 * for every few bytes it compresses, in the program's process, where they
 * compete with the program's data for the cache, and a short process paid
 * ~70 page faults to clear them. These records compress about as well with
 * the small tables (docs/capture-cost.md, section 0.16). Higher levels are
 * chosen for size and keep zstd's own tables.
 */
#define GT_ZSTD_FAST_LEVELS 3
#define GT_ZSTD_HASH_LOG    14u
#define GT_ZSTD_CHAIN_LOG   13u

static int set_table_sizes(void)
{
	if (gt_settings.zstd_level > GT_ZSTD_FAST_LEVELS)
		return 0;
	ZSTD_compressionParameters level =
		ZSTD_getCParams(gt_settings.zstd_level, gt_settings.buffer_size, 0);
	unsigned hash_log = level.hashLog < GT_ZSTD_HASH_LOG ? level.hashLog : GT_ZSTD_HASH_LOG;
	unsigned chain_log =
		level.chainLog < GT_ZSTD_CHAIN_LOG ? level.chainLog : GT_ZSTD_CHAIN_LOG;
	return ZSTD_isError(ZSTD_CCtx_setParameter(cctx, ZSTD_c_hashLog, (int)hash_log)) ||
	       ZSTD_isError(ZSTD_CCtx_setParameter(cctx, ZSTD_c_chainLog, (int)chain_log));
}

static int set_params(void)
{
	return ZSTD_isError(ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel,
						   gt_settings.zstd_level)) ||
	       ZSTD_isError(ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1)) ||
	       set_table_sizes();
}

int gt_writer_init(const struct gt_trace_file *trace_file)
{
	file = *trace_file;
	cctx = ZSTD_createCCtx_advanced(zstd_mem);
	/*
	 * A block is the records' buffer and the column directory in front of
	 * it; each column flushed apart adds a zstd block header and may
	 * leave a last block shorter than zstd's bound assumes.
	 */
	out_cap = GT_PREFIX +
		  ZSTD_compressBound(gt_settings.buffer_size + GT_COLUMN_DIRECTORY_MAX) +
		  (GT_COL_COUNT + 1) * 64;
	out = gt_pages(out_cap);
	if (!cctx || !out || set_params()) {
		gt_disable("cannot set up the zstd compressor; running untraced", NULL);
		return -1;
	}
	return 0;
}

int gt_writer_holds(int fd)
{
	struct stat st;
	/* The number changes only when the writer reopens the file; the file never does. */
	return fd >= 0 && fd == __atomic_load_n(&file.fd, __ATOMIC_RELAXED) &&
	       gt_session_holds(&file, fd, &st);
}

void gt_writer_give_back(void)
{
	/*
	 * Tracing has stopped: the number is the program's to take, as
	 * untraced. Forgotten first: the close hook hides the writer's
	 * descriptor (hooks_fd.c).
	 */
	int fd = file.fd;
	__atomic_store_n(&file.fd, -1, __ATOMIC_RELAXED);
	if (fd >= 0) {
		int cancel = gt_cancel_off(); /* close is a cancellation point */
		close(fd);
		gt_cancel_restore(cancel);
	}
	ZSTD_freeCCtx(cctx);
	cctx = NULL;
	gt_pages_free(out, out_cap);
	out = NULL;
}

void gt_writer_reset_after_fork(void)
{
	ZSTD_CCtx_reset(cctx, ZSTD_reset_session_and_parameters);
	set_params();
}

/*
 * RLIMIT_FSIZE as it is now, or UINT64_MAX: a program may lower it after
 * tracing started (a shell's `ulimit -f` before it runs a command).
 */
static uint64_t fsize_limit(void)
{
	struct rlimit rl;
	return getrlimit(RLIMIT_FSIZE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY ? rl.rlim_cur
										 : UINT64_MAX;
}

/* Checks that the descriptor is still our file and the block fits the limit. */
static int may_write(size_t len)
{
	struct stat st;
	int ours = gt_session_holds(&file, file.fd, &st);
	/* The program closed the descriptor, or put a file of its own on its number. */
	if (!ours && gt_session_reopen(&file) == 0)
		ours = gt_session_holds(&file, file.fd, &st);
	if (!ours) {
		gt_disable("the program closed the trace file's descriptor; tracing stopped, the "
			   "trace ends here",
			   NULL);
		return -1;
	}
	if (st.st_mode & S_ISVTX) {
		/* Another process of the run hit a full disk or the size limit and warned. */
		gt_stop_quietly();
		return -1;
	}
	if ((uint64_t)st.st_size + len > fsize_limit()) {
		/* Crossing RLIMIT_FSIZE would raise SIGXFSZ in the program. */
		gt_session_mark_failed(&file);
		gt_disable("the trace reached the file size limit (ulimit -f); tracing stopped, "
			   "the trace ends here",
			   NULL);
		return -1;
	}
	return 0;
}

/*
 * Compresses the pieces into one frame after the prefix, each from the
 * second on from the start of a zstd block (ZSTD_e_flush after a piece ends
 * its block); returns the frame's size or a zstd error code.
 */
static size_t compress_pieces(const struct gt_raw_piece *pieces, unsigned n, size_t raw_size)
{
	ZSTD_outBuffer o = {out + GT_PREFIX, out_cap - GT_PREFIX, 0};
	size_t r = ZSTD_CCtx_setPledgedSrcSize(cctx, raw_size);
	for (unsigned i = 0; i < n && !ZSTD_isError(r); i++) {
		ZSTD_inBuffer in = {pieces[i].p, pieces[i].len, 0};
		ZSTD_EndDirective how = i + 1 == n ? ZSTD_e_end
					: i	   ? ZSTD_e_flush
						   : ZSTD_e_continue;
		do {
			size_t before = o.pos;
			r = ZSTD_compressStream2(cctx, &o, &in, how);
			if (!ZSTD_isError(r) && r && o.pos == before && o.pos == o.size)
				r = (size_t)-ZSTD_error_dstSize_tooSmall; /* no room: never loop */
		} while (!ZSTD_isError(r) && (in.pos < in.size || (how != ZSTD_e_continue && r)));
	}
	if (ZSTD_isError(r))
		ZSTD_CCtx_reset(cctx, ZSTD_reset_session_only);
	return ZSTD_isError(r) ? r : o.pos;
}

static int write_block(const struct gt_block_header *h, const struct gt_raw_piece *pieces,
		       unsigned npieces)
{
	size_t n = compress_pieces(pieces, npieces, h->raw_size);
	if (ZSTD_isError(n)) {
		gt_disable("cannot compress trace block: ", ZSTD_getErrorName(n),
			   "; tracing stopped, the trace ends here", NULL);
		return -1;
	}
	struct gt_block_header hdr = *h;
	hdr.frame_size = (uint32_t)n;
	gt_block_header_encode(out, &hdr);
	size_t len = GT_PREFIX + n;
	if (may_write(len))
		return -1;

	/*
	 * Quietly: a block that crosses the size limit all the same (another
	 * process of the run appended since may_write looked) must not raise
	 * SIGXFSZ in the program.
	 */
	int saved_errno = errno;
	int failed = gt_write_quietly(file.fd, out, len);
	if (failed) {
		gt_session_mark_failed(&file);
		gt_disable("cannot write trace file: ", gt_strerror(errno),
			   "; tracing stopped, the trace ends here", NULL);
	}
	errno = saved_errno;
	return failed;
}

int gt_writer_write_block(const struct gt_block_header *h, const struct gt_raw_piece *pieces,
			  unsigned npieces)
{
	if (__atomic_load_n(&gt_state, __ATOMIC_ACQUIRE) != GT_STATE_ON)
		return -1;
	return write_block(h, pieces, npieces);
}

int gt_writer_write_last_block(const struct gt_block_header *h, const struct gt_raw_piece *pieces,
			       unsigned npieces)
{
	return write_block(h, pieces, npieces);
}
