/*
 * make_trace: writes a small deterministic gittrace trace (format.h) with
 * known numbers, so the CLI tests can check the analyzer's report exactly
 * without the preload: three images (root, its fork, the fork's exec),
 * two threads, known mallocs from stacks inside this very program (so the
 * sites have real names), a leak, an untracked free, frees after END, pack
 * windows mapped three times with LRU evictions, loose, idx and anonymous
 * maps, a failed mmap and an unknown record tag.
 *
 * Usage: make_trace OUT [--no-realtime | --late-frees]
 * --no-realtime: IMAGE's start_realtime_ns is 0 (a writer without the
 * realtime reading; tests/phases aligns trace2 times without it).
 * --late-frees: another trace (late_frees below).
 */
#define _GNU_SOURCE
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#include "gittrace/format.h"

/* Functions whose addresses stand in for return addresses: noinline and
 * big enough that address + 8 is still inside them. */
__attribute__((noinline)) int known_malloc_site(int x)
{
	volatile int v = x;
	return v * 3 + 1;
}

__attribute__((noinline)) int known_leak_site(int x)
{
	volatile int v = x;
	return v * 5 + 2;
}

__attribute__((noinline)) int worker_main(int x)
{
	volatile int v = x;
	return v * 7 + 3;
}

static uint8_t buf[1 << 16];
static uint64_t start_realtime_ns = 1700000000000000000ull;
static size_t len;
static uint32_t nrec;
static FILE *out;

static void rec_begin(uint8_t **p)
{
	*p = buf + len + 1 + 3; /* tag + room for a 3-byte length */
}

/* Finishes a record whose body is [buf+len+4, p): moves it into place. */
static void rec_end(uint8_t tag, uint8_t *p)
{
	uint8_t *body = buf + len + 4;
	size_t n = (size_t)(p - body);
	uint8_t hdr[1 + GT_UV_MAX];
	hdr[0] = tag;
	size_t h = (size_t)(gt_put_uv(hdr + 1, n) - hdr);
	memmove(buf + len + h, body, n);
	memcpy(buf + len, hdr, h);
	len += h + n;
	nrec++;
}

static uint8_t *put_str(uint8_t *p, const char *s)
{
	size_t n = strlen(s);
	p = gt_put_uv(p, n);
	memcpy(p, s, n);
	return p + n;
}

static void flush_block(uint64_t image, uint32_t pid, uint32_t seq, uint64_t base)
{
	size_t cap = ZSTD_compressBound(len);
	uint8_t *frame = malloc(cap);
	ZSTD_CCtx *c = ZSTD_createCCtx();
	ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
	size_t fsz = ZSTD_compress2(c, frame, cap, buf, len);
	if (ZSTD_isError(fsz)) {
		fprintf(stderr, "make_trace: zstd: %s\n", ZSTD_getErrorName(fsz));
		exit(1);
	}
	/* Format 1.2 blocks, records one after another: readers keep reading them. */
	struct gt_block_header h = {
		.magic = GT_BLOCK_MAGIC,
		.major = 1,
		.minor = 2,
		.image_id = image,
		.pid = pid,
		.seq = seq,
		.frame_size = (uint32_t)fsz,
		.raw_size = (uint32_t)len,
		.records = nrec,
		.base_ns = base,
	};
	uint8_t hb[GT_SKIPPABLE_PREFIX_SIZE + GT_BLOCK_HEADER_SIZE];
	gt_block_header_encode(hb, &h);
	fwrite(hb, 1, sizeof(hb), out);
	fwrite(frame, 1, fsz, out);
	ZSTD_freeCCtx(c);
	free(frame);
	len = 0;
	nrec = 0;
}

static void image(uint64_t pid, uint64_t ppid, uint64_t origin, uint64_t parent, uint64_t mono,
		  const char *argv0, const char *argv1, const char *env)
{
	uint8_t *p;
	rec_begin(&p);
	p = gt_put_uv(p, pid);
	p = gt_put_uv(p, ppid);
	p = gt_put_uv(p, start_realtime_ns);
	p = gt_put_uv(p, mono);
	p = gt_put_uv(p, origin);
	p = gt_put_uv(p, parent);
	p = gt_put_uv(p, 64);
	p = gt_put_uv(p, 4096);
	p = gt_put_uv(p, 16);
	p = put_str(p, "/usr/bin/git");
	p = put_str(p, "/r");
	p = gt_put_uv(p, 2);
	p = put_str(p, argv0);
	p = put_str(p, argv1);
	p = gt_put_uv(p, env ? 1 : 0);
	if (env)
		p = put_str(p, env);
	rec_end(GT_REC_IMAGE, p);
}

static int main_module(struct dl_phdr_info *info, size_t size, void *data)
{
	uint64_t *range = data;
	(void)size;
	uint64_t end = 0;
	for (int i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_LOAD &&
		    info->dlpi_phdr[i].p_vaddr + info->dlpi_phdr[i].p_memsz > end)
			end = info->dlpi_phdr[i].p_vaddr + info->dlpi_phdr[i].p_memsz;
	range[0] = info->dlpi_addr;
	range[1] = end;
	return 1; /* the first entry is the main program */
}

static void module(void)
{
	uint64_t range[2];
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	self[n > 0 ? n : 0] = '\0';
	dl_iterate_phdr(main_module, range);
	uint8_t *p;
	rec_begin(&p);
	p = gt_put_uv(p, range[0]);
	p = gt_put_uv(p, range[1]);
	p = put_str(p, self);
	p = put_str(p, "");
	rec_end(GT_REC_MODULE, p);
}

static void thread(uint64_t serial, uint64_t tid)
{
	uint8_t *p;
	rec_begin(&p);
	p = gt_put_uv(p, serial);
	p = gt_put_uv(p, tid);
	rec_end(GT_REC_THREAD, p);
}

static void stack(uint64_t id, uint64_t ip0, uint64_t ip1)
{
	uint8_t *p;
	rec_begin(&p);
	p = gt_put_uv(p, id);
	p = gt_put_uv(p, 2);
	p = gt_put_uv(p, ip0 + 8);
	p = gt_put_uv(p, ip1 + 8);
	rec_end(GT_REC_STACK, p);
}

/* A CALL 10 ns after the previous one, lasting dur ns; args as listed. */
static void call(uint8_t fn, uint64_t dur, uint64_t stack_id, int nargs, const uint64_t *args,
		 const char *path)
{
	uint8_t *p;
	rec_begin(&p);
	*p++ = fn;
	p = gt_put_sv(p, 10);
	p = gt_put_uv(p, dur);
	p = gt_put_uv(p, stack_id);
	for (int i = 0; i < nargs; i++)
		p = (fn == GT_FN_MUNMAP && i == 2) || ((fn == GT_FN_MMAP) && i == 4)
			    ? gt_put_sv(p, (int64_t)args[i])
			    : gt_put_uv(p, args[i]);
	if (path)
		p = put_str(p, path);
	rec_end(GT_REC_CALL, p);
}

#define CALL(fn, dur, st, ...)                                                                     \
	do {                                                                                       \
		const uint64_t a_[] = {__VA_ARGS__};                                               \
		call(fn, dur, st, sizeof(a_) / sizeof(*a_), a_, NULL);                             \
	} while (0)

static void map(const char *path, uint64_t addr, uint64_t len_, uint64_t off, uint64_t dur)
{
	const uint64_t a[] = {0,   len_, 1, path[0] ? 2 : 0x22, (uint64_t)(path[0] ? 3 : -1),
			      off, addr};
	call(GT_FN_MMAP, dur, 0, 7, a, path);
}

static void end(uint64_t reason, int64_t status, uint64_t mono, uint64_t cpu_ns)
{
	uint8_t *p;
	rec_begin(&p);
	p = gt_put_uv(p, reason);
	p = gt_put_sv(p, status);
	p = gt_put_uv(p, 1700000001000000000ull);
	p = gt_put_uv(p, mono);
	p = gt_put_uv(p, cpu_ns);
	p = gt_put_uv(p, 0);
	for (int i = 0; i < 6; i++)
		p = gt_put_uv(p, 0);
	rec_end(GT_REC_END, p);
}

#define IMG_A 0x1111111111111111ull
#define IMG_B 0x2222222222222222ull
#define IMG_C 0x3333333333333333ull
#define PACK  "/r/.git/objects/pack/pack-1.pack"
#define KIB   1024ull

/*
 * Two images that end and then free their blocks one block at a time, as
 * tracers before 4153cd7 wrote the frees of libraries finalized after
 * them: each image's blocks interleave with the other's, so each keeps
 * coming back to the analyzer's queue of ended images while the other
 * waits in it. A: 100 mallocs, END, then a free every 2 blocks of the
 * file; B: 100 mallocs, then the same after its END. Every free matches a
 * malloc (none untracked), nothing leaks, 200 blocks after the ENDs.
 */
static void late_frees(void)
{
	const uint64_t base[2] = {0x100000, 0x900000};
	const uint64_t ids[2] = {IMG_A, IMG_B};
	const uint32_t pids[2] = {200, 201};
	uint32_t seq[2] = {0, 0};
	uint64_t site = (uint64_t)(uintptr_t)known_malloc_site;
	uint64_t worker = (uint64_t)(uintptr_t)worker_main;
	for (int k = 0; k < 2; k++) {
		image(pids[k], k ? pids[0] : 1, k ? GT_ORIGIN_FORK : GT_ORIGIN_ROOT, k ? ids[0] : 0,
		      1000, "git", k ? "pack-objects" : "repack", NULL);
		module();
		thread(1, pids[k]);
		stack(1, site, worker);
		for (uint64_t i = 0; i < 100; i++)
			CALL(GT_FN_MALLOC, 100, 1, 48, base[k] + i * 0x100);
		end(GT_END_EXIT, 0, 2000, 1000000);
		flush_block(ids[k], pids[k], seq[k]++, 1000);
	}
	for (uint64_t i = 0; i < 100; i++) {
		for (int k = 0; k < 2; k++) {
			thread(1, pids[k]);
			CALL(GT_FN_FREE, 50, 0, base[k] + i * 0x100);
			flush_block(ids[k], pids[k], seq[k]++, 3000 + i);
		}
	}
}

int main(int argc, char **argv)
{
	int late = argc == 3 && !strcmp(argv[2], "--late-frees");
	if (argc == 3 && !strcmp(argv[2], "--no-realtime"))
		start_realtime_ns = 0;
	else if (argc != 2 && !late) {
		fprintf(stderr, "usage: make_trace OUT [--no-realtime | --late-frees]\n");
		return 2;
	}
	out = fopen(argv[1], "wb");
	if (!out) {
		perror(argv[1]);
		return 1;
	}
	if (late) {
		late_frees();
		return fclose(out) ? 1 : 0;
	}
	uint64_t site = (uint64_t)(uintptr_t)known_malloc_site;
	uint64_t leak = (uint64_t)(uintptr_t)known_leak_site;
	uint64_t worker = (uint64_t)(uintptr_t)worker_main;

	/* Image A, block 0. */
	image(100, 1, GT_ORIGIN_ROOT, 0, 1000, "git", "log", "MALLOC_PERTURB_=165");
	module();
	thread(1, 100);
	stack(1, site, worker);
	stack(2, leak, worker);
	for (uint64_t i = 0; i < 5; i++) { /* 5 temporary mallocs */
		CALL(GT_FN_MALLOC, 100, 1, 32, 0x10000);
		CALL(GT_FN_FREE, 50, 1, 0x10000);
	}
	for (uint64_t i = 0; i < 3; i++) /* 3 × 100 B, one freed after END */
		CALL(GT_FN_MALLOC, 100, 2, 100, 0x20000 + i * 0x100);
	CALL(GT_FN_CALLOC, 100, 1, 2, 50, 0x30000);
	CALL(GT_FN_REALLOC, 100, 1, 0x30000, 200, 0x31000);
	CALL(GT_FN_FREE, 50, 1, 0x31000);
	CALL(GT_FN_FREE, 50, 1, 0xdead0000); /* never allocated: untracked */
	/* An unknown record tag, skipped by its length. */
	uint8_t *p;
	rec_begin(&p);
	*p++ = 1;
	*p++ = 2;
	*p++ = 3;
	rec_end(99, p);
	flush_block(IMG_A, 100, 0, 1000);

	/* Image B (fork of A), block 0, two threads. */
	image(101, 100, GT_ORIGIN_FORK, IMG_A, 2000, "git", "log", NULL);
	module();
	stack(1, site, worker);
	thread(2, 102);
	for (uint64_t i = 0; i < 4; i++)
		CALL(GT_FN_MALLOC, 100, 1, 64, 0x40000 + i * 0x100);
	thread(1, 101);
	for (uint64_t i = 0; i < 4; i++)
		CALL(GT_FN_FREE, 50, 1, 0x40000 + i * 0x100);
	end(GT_END_EXEC, -1, 3000, 200000000);
	flush_block(IMG_B, 101, 0, 2000);

	/* Image A, block 1: maps. Pack windows of 64 KiB at multiples of
	 * 32 KiB, at most two live: every third map evicts the oldest. */
	const uint64_t offs[3] = {0, 32 * KIB, 64 * KIB};
	uint64_t live[2] = {0, 0};
	int nlive = 0;
	for (int i = 0; i < 9; i++) {
		uint64_t addr = 0x7000000000ull + (uint64_t)i * 0x100000;
		if (nlive == 2) {
			CALL(GT_FN_MUNMAP, 1000, 0, live[0], 64 * KIB, 0);
			live[0] = live[1];
			nlive = 1;
		}
		map(PACK, addr, 64 * KIB, offs[i % 3], 1000);
		live[nlive++] = addr;
	}
	CALL(GT_FN_MUNMAP, 1000, 0, live[0], 64 * KIB, 0);
	CALL(GT_FN_MUNMAP, 1000, 0, live[1], 64 * KIB, 0);
	map("/r/.git/objects/pack/pack-1.idx", 0x7100000000ull, 10000, 0, 1000);
	map("/r/.git/objects/ab/0123456789abcdef0123456789abcdef012345", 0x7200000000ull, 300, 0,
	    1000);
	CALL(GT_FN_MUNMAP, 1000, 0, 0x7200000000ull, 300, 0);
	map("", 0x7300000000ull, 1024 * KIB, 0, 1000); /* anonymous, unmapped in 2 halves */
	CALL(GT_FN_MUNMAP, 1000, 0, 0x7300000000ull, 512 * KIB, 0);
	CALL(GT_FN_MUNMAP, 1000, 0, 0x7300000000ull + 512 * KIB, 512 * KIB, 0);
	map("", UINT64_MAX, 4096, 0, 1000); /* failed */
	end(GT_END_EXIT, 0, 1000000000, 1000000000);
	flush_block(IMG_A, 100, 1, 100000);

	/* Image C: B's exec, same pid; 10 × 16 B freed in reverse: 1 temporary. */
	image(101, 100, GT_ORIGIN_EXEC, 0, 3500, "git", "pack-objects", NULL);
	module();
	stack(1, site, worker);
	for (uint64_t i = 0; i < 10; i++)
		CALL(GT_FN_MALLOC, 100, 1, 16, 0x50000 + i * 0x100);
	for (uint64_t i = 10; i-- > 0;)
		CALL(GT_FN_FREE, 50, 1, 0x50000 + i * 0x100);
	end(GT_END_EXIT, 0, 500000000, 100000000);
	flush_block(IMG_C, 101, 0, 3500);

	/* Image A, block 2: an exit handler frees one of the leaks after END. */
	CALL(GT_FN_FREE, 50, 2, 0x20000);
	flush_block(IMG_A, 100, 2, 1000000100);
	return fclose(out) ? 1 : 0;
}
