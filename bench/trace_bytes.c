/*
 * bench/trace_bytes.c: where a trace's bytes go, and what other encodings
 * of the same records would weigh. A measuring tool for docs/capture-cost.md,
 * not part of gittrace. Of a format 2.x trace it prints what each column
 * weighs. Of a format 1.x trace (include/gittrace/format.h) it accounts its
 * raw bytes by record kind and, within
 * CALL, by field; then re-encodes the records under named variants (fields
 * dropped, or prototype encodings: one-byte tokens, address deltas, a free as
 * a reference to its allocation, sampled or log-scaled durations, columns...)
 * and compresses each as the writer does (blocks of at most the writer's
 * buffer size, one zstd frame each with checksum, at the writer's level, plus
 * the 56-byte block prefix), printing the compressed size per allocating call.
 *
 * Limits: per-image state (stack ids, address deltas) assumes the blocks of
 * one image are not interleaved with another image's, true for a
 * single-process command such as git log; lossy variants say so in their
 * name. Block cuts follow size only, not the writer's 1-second flushes.
 *
 * usage: trace_bytes [-l LEVEL] [-b BLOCK_BYTES] TRACE.zst
 * build: cc -O2 -std=c11 -I include bench/trace_bytes.c -lzstd -lm
 */
#define _GNU_SOURCE
#include "gittrace/format.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_DEPTH 256 /* deeper than any writer records */
#include <zstd.h>

/* ---- the argument tables of format.h, as data ---------------------- */

struct argspec {
	const char *label;
	char enc; /* U P X S T */
};
#define A_SPEC(field, enc, label) {label, #enc[0]},
#define FN_ARGS(NAME, value, name)                                                                 \
	static const struct argspec args_##name[] = {GT_ARGS_##NAME(A_SPEC){NULL, 0}};
GT_FNS(FN_ARGS)
#undef FN_ARGS
static const struct fnspec {
	const char *name;
	const struct argspec *args;
} fns[GT_FN_COUNT] = {
#define FN_SPEC(NAME, value, name) [value] = {#name, args_##name},
	GT_FNS(FN_SPEC)
#undef FN_SPEC
};

static int is_alloc_fn(int fn)
{
	return fn <= GT_FN_REALLOCARRAY || (fn >= GT_FN_POSIX_MEMALIGN && fn <= GT_FN_PVALLOC);
}

/* Semantic roles of a malloc-family argument, for the transforms. */
enum role { R_SIZE, R_RESULT, R_PTR, R_OTHER };
static enum role role_of(int fn, const char *label)
{
	if (fn >= GT_FN_MMAP)
		return R_OTHER;
	if (!strcmp(label, "result"))
		return R_RESULT;
	if (!strcmp(label, "ptr"))
		return R_PTR;
	if (!strcmp(label, "size") || !strcmp(label, "nmemb") || !strcmp(label, "align"))
		return R_SIZE;
	return R_OTHER;
}

/* ---- reading the trace --------------------------------------------- */

struct rec {
	uint8_t tag, fn, nargs;
	uint32_t off, len; /* body in raw */
	int64_t dts;
	uint64_t dur, stack;
	uint64_t a[8];
	uint32_t t_off, t_len; /* a T argument (mmap's path) in raw */
	uint32_t serial;       /* THREAD: its serial */
};

static uint8_t *raw;
static size_t raw_len, raw_cap;
static struct rec *recs;
static size_t nrecs, recs_cap;
static size_t nblocks;
static uint64_t file_bytes, alloc_calls, calls;

/* STACK records by id (the last image's, for one-image traces). */
#define MAX_STACKS (1 << 20)
static uint32_t stack_depth[MAX_STACKS], stack_at[MAX_STACKS];
static uint64_t stack_ips[1 << 24];
static uint32_t nstack_ips;

static void die(const char *what)
{
	fprintf(stderr, "trace_bytes: %s\n", what);
	exit(1);
}

/*
 * Format 2.x and later: the records are already split into columns
 * (format.h); what each column weighs, raw and compressed alone, block by
 * block. A 2.x block has no new-address column, a 3.x one no returned one.
 */
static const char *const column_names[GT_COL_COUNT] = {
	"records (tokens, other records)",
	"call times",
	"durations",
	"stack ids",
	"sizes (U)",
	"addresses (P; 3.x: codes; 4.x: but returned)",
	"other (X, S, T)",
	"new addresses (3.x)",
	"codes of blocks returned (4.x)",
};
static uint64_t column_raw[GT_COL_COUNT], column_packed[GT_COL_COUNT], blocks2;

static void tally_columns(const uint8_t *block, size_t len, unsigned major)
{
	struct gt_cursor c = {block, block + len, 1};
	uint64_t n = gt_get_uv(&c), clen[GT_COL_COUNT] = {0};
	uint64_t known = gt_columns_of_major(major);
	if (!c.ok || n < known)
		die("bad column directory");
	for (uint64_t i = 0; i < n; i++) {
		uint64_t l = gt_get_uv(&c);
		if (i < GT_COL_COUNT)
			clen[i] = l;
	}
	const uint8_t *p = c.p;
	static uint8_t packed[1 << 22];
	for (uint64_t i = 0; i < known; i++) {
		if (!c.ok || clen[i] > (uint64_t)(block + len - p))
			die("bad column directory");
		size_t z = clen[i] ? ZSTD_compress(packed, sizeof(packed), p, clen[i], 1) : 0;
		if (ZSTD_isError(z))
			die("cannot compress a column");
		column_raw[i] += clen[i];
		column_packed[i] += z;
		p += clen[i];
	}
	blocks2++;
}

static void column_report(void)
{
	uint64_t raw_sum = 0, packed_sum = 0;
	for (int i = 0; i < GT_COL_COUNT; i++) {
		raw_sum += column_raw[i];
		packed_sum += column_packed[i];
	}
	printf("## Format 2.x+ columns (%llu blocks; file %llu bytes)\n\n"
	       "| column | raw bytes | compressed alone | share of compressed "
	       "|\n|---|---|---|---|\n",
	       (unsigned long long)blocks2, (unsigned long long)file_bytes);
	for (int i = 0; i < GT_COL_COUNT; i++)
		printf("| %s | %llu | %llu | %.1f%% |\n", column_names[i],
		       (unsigned long long)column_raw[i], (unsigned long long)column_packed[i],
		       packed_sum ? 100.0 * (double)column_packed[i] / (double)packed_sum : 0);
	printf("| all | %llu | %llu | |\n", (unsigned long long)raw_sum,
	       (unsigned long long)packed_sum);
}

static void read_trace(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		die("cannot open the trace");
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	rewind(f);
	uint8_t *file = malloc((size_t)n);
	if (fread(file, 1, (size_t)n, f) != (size_t)n)
		die("cannot read the trace");
	fclose(f);
	file_bytes = (uint64_t)n;
	for (size_t at = 0; at + GT_SKIPPABLE_PREFIX_SIZE + GT_BLOCK_HEADER_SIZE <= (size_t)n;) {
		struct gt_block_header h;
		gt_block_header_decode(file + at + GT_SKIPPABLE_PREFIX_SIZE, &h);
		if (gt_get_le32(file + at) != GT_SKIPPABLE_MAGIC || h.magic != GT_BLOCK_MAGIC)
			die("not a gittrace block");
		at += GT_SKIPPABLE_PREFIX_SIZE + GT_BLOCK_HEADER_SIZE;
		if (raw_len + h.raw_size > raw_cap) {
			raw_cap = 2 * (raw_len + h.raw_size);
			raw = realloc(raw, raw_cap);
		}
		size_t got = ZSTD_decompress(raw + raw_len, h.raw_size, file + at, h.frame_size);
		if (ZSTD_isError(got) || got != h.raw_size)
			die("corrupt block");
		if (h.major >= 2)
			tally_columns(raw + raw_len, got,
				      h.major); /* and not kept: 1.x analysis only */
		else
			raw_len += got;
		at += h.frame_size;
		nblocks++;
	}
	free(file);
}

static void parse(void)
{
	struct gt_cursor c = {raw, raw + raw_len, 1};
	while (c.p < c.end) {
		if (nrecs == recs_cap) {
			recs_cap = recs_cap ? 2 * recs_cap : 1 << 16;
			recs = realloc(recs, recs_cap * sizeof(*recs));
		}
		struct rec *r = &recs[nrecs++];
		memset(r, 0, sizeof(*r));
		r->tag = gt_get_u8(&c);
		uint64_t len = gt_get_uv(&c);
		if (!c.ok || len > (uint64_t)(c.end - c.p))
			die("record runs past the end");
		r->off = (uint32_t)(c.p - raw);
		r->len = (uint32_t)len;
		struct gt_cursor b = {c.p, c.p + len, 1};
		c.p += len;
		if (r->tag == GT_REC_THREAD) {
			r->serial = (uint32_t)gt_get_uv(&b);
		} else if (r->tag == GT_REC_STACK) {
			uint64_t id = gt_get_uv(&b), depth = gt_get_uv(&b);
			if (id < MAX_STACKS && depth <= MAX_DEPTH) {
				stack_depth[id] = (uint32_t)depth;
				stack_at[id] = nstack_ips;
				for (uint64_t i = 0; i < depth; i++)
					stack_ips[nstack_ips++] = gt_get_uv(&b);
			}
		} else if (r->tag == GT_REC_CALL) {
			r->fn = gt_get_u8(&b);
			if (r->fn >= GT_FN_COUNT)
				die("unknown function");
			r->dts = gt_get_sv(&b);
			r->dur = gt_get_uv(&b);
			r->stack = gt_get_uv(&b);
			for (const struct argspec *a = fns[r->fn].args; a->label; a++, r->nargs++) {
				if (a->enc == 'S')
					r->a[r->nargs] = (uint64_t)gt_get_sv(&b);
				else if (a->enc == 'T') {
					size_t tl;
					const char *t = gt_get_str(&b, &tl);
					r->t_off = (uint32_t)((const uint8_t *)t - raw);
					r->t_len = (uint32_t)tl;
				} else
					r->a[r->nargs] = gt_get_uv(&b);
			}
			if (!b.ok)
				die("short CALL body");
			calls++;
			alloc_calls += is_alloc_fn(r->fn);
		}
	}
}

/* ---- raw accounting ------------------------------------------------ */

static size_t uv_len(uint64_t v)
{
	size_t n = 1;
	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

static const char *const rec_names[] = {
#define REC_NAME(NAME, value, name) [value] = #NAME,
	GT_RECORDS(REC_NAME)
#undef REC_NAME
};

struct acct {
	char key[40];
	uint64_t bytes, n;
};
static struct acct accts[256];
static int naccts;

static void account(const char *key, uint64_t bytes)
{
	for (int i = 0; i < naccts; i++)
		if (!strcmp(accts[i].key, key)) {
			accts[i].bytes += bytes;
			accts[i].n++;
			return;
		}
	snprintf(accts[naccts].key, sizeof(accts[naccts].key), "%s", key);
	accts[naccts].bytes = bytes;
	accts[naccts++].n = 1;
}

static int by_bytes(const void *a, const void *b)
{
	const struct acct *x = a, *y = b;
	return x->bytes < y->bytes ? 1 : x->bytes > y->bytes ? -1 : 0;
}

static void raw_report(void)
{
	uint64_t kind[16] = {0}, kind_n[16] = {0};
	for (size_t i = 0; i < nrecs; i++) {
		struct rec *r = &recs[i];
		uint64_t whole = 1 + uv_len(r->len) + r->len;
		kind[r->tag & 15] += whole;
		kind_n[r->tag & 15]++;
		if (r->tag != GT_REC_CALL)
			continue;
		char key[64];
		account("CALL tag+len", 1 + uv_len(r->len));
		account("CALL fn", 1);
		account("CALL dts", uv_len(gt_zigzag(r->dts)));
		account("CALL duration", uv_len(r->dur));
		account("CALL stack id", uv_len(r->stack));
		int k = 0;
		for (const struct argspec *a = fns[r->fn].args; a->label; a++, k++) {
			uint64_t n = a->enc == 'T'   ? uv_len(r->t_len) + r->t_len
				     : a->enc == 'S' ? uv_len(gt_zigzag((int64_t)r->a[k]))
						     : uv_len(r->a[k]);
			snprintf(key, sizeof(key), "CALL %s.%s", fns[r->fn].name, a->label);
			account(key, n);
		}
	}
	printf("## Raw bytes\n\n%zu records in %zu blocks, %zu raw bytes, file %llu bytes; "
	       "%llu calls, %llu allocating\n\n",
	       nrecs, nblocks, raw_len, (unsigned long long)file_bytes, (unsigned long long)calls,
	       (unsigned long long)alloc_calls);
	printf("| record kind | records | raw bytes | share | B/alloc call "
	       "|\n|---|---|---|---|---|\n");
	for (int t = 1; t < 16; t++)
		if (kind_n[t])
			printf("| %s | %llu | %llu | %.1f%% | %.2f |\n",
			       t < (int)(sizeof(rec_names) / sizeof(*rec_names)) && rec_names[t]
				       ? rec_names[t]
				       : "?",
			       (unsigned long long)kind_n[t], (unsigned long long)kind[t],
			       100.0 * (double)kind[t] / (double)raw_len,
			       (double)kind[t] / (double)alloc_calls);
	qsort(accts, (size_t)naccts, sizeof(*accts), by_bytes);
	printf("\n| CALL field | calls | raw bytes | share of raw | B/field | B/alloc call |\n"
	       "|---|---|---|---|---|---|\n");
	for (int i = 0; i < naccts; i++)
		if (100.0 * (double)accts[i].bytes / (double)raw_len >= 0.05)
			printf("| %s | %llu | %llu | %.1f%% | %.2f | %.2f |\n", accts[i].key,
			       (unsigned long long)accts[i].n, (unsigned long long)accts[i].bytes,
			       100.0 * (double)accts[i].bytes / (double)raw_len,
			       (double)accts[i].bytes / (double)accts[i].n,
			       (double)accts[i].bytes / (double)alloc_calls);
	printf("\n");
}

/* ---- how far a cache of unwinds could go -------------------------- */

/*
 * For a key made of the k innermost return addresses (what a partial unwind
 * of k frames yields; k = 1 is the hook's own return address, free), a cache
 * remembering the last full stack seen with that key: how often it would
 * give the right stack, a wrong one, or nothing. Allocating calls only (a
 * free's stack is not used by the analyzer). A real cache would add the
 * stack pointer to the key, which can only turn wrong answers into misses.
 */
static void cache_report(void)
{
	static const int ks[] = {1, 2, 3, 4, 6, 8};
	enum { BITS = 20 };
	static struct {
		uint64_t key;
		uint32_t stack;
	} * t;
	t = calloc((size_t)1 << BITS, sizeof(*t));
	uint64_t depth_sum = 0, n = 0;
	for (size_t i = 0; i < nrecs; i++)
		if (recs[i].tag == GT_REC_CALL && is_alloc_fn(recs[i].fn) &&
		    recs[i].stack < MAX_STACKS) {
			depth_sum += stack_depth[recs[i].stack];
			n++;
		}
	printf("## Unwind cache ceiling\n\nAllocating calls: %llu, mean recorded depth %.1f "
	       "frames.\n\n| key: innermost frames | right | wrong | miss |\n|---|---|---|---|\n",
	       (unsigned long long)n, n ? (double)depth_sum / (double)n : 0.0);
	for (size_t j = 0; j < sizeof(ks) / sizeof(*ks); j++) {
		memset(t, 0, sizeof(*t) << BITS);
		uint64_t right = 0, wrong = 0, miss = 0;
		for (size_t i = 0; i < nrecs; i++) {
			const struct rec *r = &recs[i];
			if (r->tag != GT_REC_CALL || !is_alloc_fn(r->fn) || !r->stack ||
			    r->stack >= MAX_STACKS)
				continue;
			uint64_t h = 0x9e3779b97f4a7c15u;
			uint32_t d = stack_depth[r->stack];
			for (int k = 0; k < ks[j] && (uint32_t)k < d; k++) {
				h ^= stack_ips[stack_at[r->stack] + (uint32_t)k];
				h *= 0xff51afd7ed558ccdu;
				h ^= h >> 33;
			}
			h |= 1;
			size_t s = (size_t)(h >> (64 - BITS));
			while (t[s].key && t[s].key != h)
				s = (s + 1) & ((1u << BITS) - 1);
			if (!t[s].key)
				miss++;
			else if (t[s].stack == r->stack)
				right++;
			else
				wrong++;
			t[s].key = h;
			t[s].stack = (uint32_t)r->stack;
		}
		printf("| %d | %.1f%% | %.1f%% | %.1f%% |\n", ks[j],
		       100.0 * (double)right / (double)n, 100.0 * (double)wrong / (double)n,
		       100.0 * (double)miss / (double)n);
	}
	printf("\n");
	free(t);
}

/* ---- re-encoding --------------------------------------------------- */

enum {
	/* what to leave out (ablations) */
	D_TAGLEN = 1 << 0,    /* CALL's tag and length (fn stays) */
	D_DTS = 1 << 1,	      /* start time */
	D_DUR = 1 << 2,	      /* duration */
	D_STACK = 1 << 3,     /* stack id */
	D_SIZE = 1 << 4,      /* size, nmemb, align */
	D_RESULT = 1 << 5,    /* an allocation's result */
	D_PTR = 1 << 6,	      /* free's and realloc's ptr */
	D_STACKREC = 1 << 7,  /* STACK records */
	D_OTHERREC = 1 << 8,  /* records other than CALL and STACK */
	D_FREESTACK = 1 << 9, /* a free's stack id (and its unwind) */
	/* prototype encodings */
	F_TOKEN = 1 << 12,	 /* tag+len+fn as one byte; dur-present flag in it */
	F_ADDR_DELTA = 1 << 13,	 /* result: zigzag delta from the thread's last result
				    (realloc: from its ptr) */
	F_FREE_DELTA = 1 << 14,	 /* ptr: zigzag delta from the thread's last result */
	F_FREE_REF = 1 << 15,	 /* ptr: allocations since the one it frees */
	F_DUR_LOG = 1 << 16,	 /* duration: 8 steps per octave (lossy, <= 4.4%) */
	F_DUR_SAMPLE = 1 << 17,	 /* duration on a random 1 in 16 calls (needs F_TOKEN) */
	F_DTS_US = 1 << 18,	 /* start time in 1.024 us units (lossy) */
	F_STACK_DELTA = 1 << 19, /* stack id: zigzag delta from the thread's last */
	F_SITE = 1 << 20,	 /* (fn, stack, size) interned: one id, new ones inline */
	F_COLUMNS = 1 << 21,	 /* each block written column by column */
	F_STACK_TRIE = 1 << 22,	 /* STACK: only frames new to a trie of stacks */
	F_STACK_MTF = 1 << 23,	 /* stack id: rank in a 16-entry move-to-front list */
	F_DTS_MS = 1 << 24,	 /* start time in 1.05 ms units (lossy) */
	F_TIME_SAMPLE = 1 << 25, /* start time and duration on the F_DUR_SAMPLE calls only */
	F_FREE_NULL = 1 << 26,	 /* free(NULL): a token of its own, no fields (needs F_TOKEN) */
};

enum col { C_TOK, C_DTS, C_DUR, C_STACK, C_SIZE, C_RESULT, C_PTR, C_OTHER, C_REC, NCOLS };

struct buf {
	uint8_t *p;
	size_t len, cap;
};

static void buf_put(struct buf *b, const void *src, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = 2 * (b->len + n) + 4096;
		b->p = realloc(b->p, b->cap);
	}
	memcpy(b->p + b->len, src, n);
	b->len += n;
}

/* A record being built: bytes per column, then appended to the block. */
struct item {
	struct buf col[NCOLS];
};

static void put_uv(struct buf *b, uint64_t v)
{
	uint8_t tmp[GT_UV_MAX];
	buf_put(b, tmp, (size_t)(gt_put_uv(tmp, v) - tmp));
}

static void put_sv(struct buf *b, int64_t v)
{
	put_uv(b, gt_zigzag(v));
}

/* ptr -> allocation number, open addressing with backward-shift deletion. */
#define MAP_BITS 22
struct slot {
	uint64_t key, val;
};
static struct slot *map;
#define MAP_MASK ((1u << MAP_BITS) - 1)
static size_t map_n;

static size_t map_hash(uint64_t k)
{
	return (size_t)((k * 0x9e3779b97f4a7c15u) >> (64 - MAP_BITS));
}

static void map_put(uint64_t k, uint64_t v)
{
	size_t i = map_hash(k);
	while (map[i].key && map[i].key != k)
		i = (i + 1) & MAP_MASK;
	if (!map[i].key)
		map_n++;
	if (map_n > (MAP_MASK >> 1))
		die("too many live allocations");
	map[i].key = k;
	map[i].val = v;
}

/* Removes k; returns its value + 1, or 0 if absent. */
static uint64_t map_take(uint64_t k)
{
	size_t i = map_hash(k);
	while (map[i].key && map[i].key != k)
		i = (i + 1) & MAP_MASK;
	if (!map[i].key)
		return 0;
	uint64_t v = map[i].val + 1;
	map_n--;
	for (size_t j = i;;) { /* backward shift */
		map[i].key = 0;
		for (;;) {
			j = (j + 1) & MAP_MASK;
			if (!map[j].key)
				return v;
			size_t h = map_hash(map[j].key);
			if (i <= j ? (i < h && h <= j) : (i < h || h <= j))
				continue;
			break;
		}
		map[i] = map[j];
		i = j;
	}
}

/* Sites: (fn, stack, size, nmemb) -> id. */
struct site {
	uint64_t h, stack, a, b;
	uint32_t id;
};
static struct site *sites;
#define SITE_BITS 21
static uint32_t nsites;

static uint32_t site_intern(uint64_t stack, uint64_t a, uint64_t b, int *is_new)
{
	uint64_t h = (stack * 0x9e3779b97f4a7c15u) ^ (a * 0xff51afd7ed558ccdu) ^ (b + 0x12345);
	h ^= h >> 29;
	size_t i = (size_t)(h >> (64 - SITE_BITS));
	for (; sites[i].id; i = (i + 1) & ((1u << SITE_BITS) - 1))
		if (sites[i].stack == stack && sites[i].a == a && sites[i].b == b) {
			*is_new = 0;
			return sites[i].id;
		}
	if (nsites > (1u << (SITE_BITS - 1)))
		die("too many sites");
	sites[i] = (struct site){h, stack, a, b, ++nsites};
	*is_new = 1;
	return nsites;
}

/* A trie of stacks from the outermost frame: node -> (parent, ip). */
struct tnode {
	uint64_t parent, ip;
	uint32_t id;
};
static struct tnode *trie;
#define TRIE_BITS 21
static uint32_t ntnodes;

static size_t trie_slot(uint32_t parent, uint64_t ip)
{
	uint64_t h = ((uint64_t)parent * 0x9e3779b97f4a7c15u) ^ (ip * 0xff51afd7ed558ccdu);
	size_t i = (size_t)(h >> (64 - TRIE_BITS));
	while (trie[i].id && !(trie[i].parent == parent && trie[i].ip == ip))
		i = (i + 1) & ((1u << TRIE_BITS) - 1);
	return i;
}

struct tstate {
	uint64_t last_result, last_stack;
	uint64_t mtf[16];
};
static struct tstate threads[1024];

struct enc {
	unsigned flags;
	int level;
	size_t block;
	struct item it;	       /* the record being built */
	struct buf col[NCOLS]; /* the block being built */
	size_t block_len;
	struct buf tmp;
	ZSTD_CCtx *cctx;
	uint64_t raw, packed, nblocks;
	double secs;
	uint64_t nallocs; /* allocations so far (F_FREE_REF) */
	uint32_t rng;
	uint64_t now, now_q;	    /* F_DTS_US */
	uint64_t col_packed[NCOLS]; /* each column compressed alone (F_COLUMNS) */
};

static void flush_block(struct enc *e)
{
	if (!e->block_len)
		return;
	e->tmp.len = 0;
	for (int c = 0; c < NCOLS && (e->flags & F_COLUMNS); c++) {
		size_t cb = ZSTD_compressBound(e->col[c].len);
		uint8_t *co = malloc(cb);
		size_t cn = ZSTD_compress2(e->cctx, co, cb, e->col[c].p, e->col[c].len);
		e->col_packed[c] += ZSTD_isError(cn) ? 0 : cn;
		free(co);
	}
	for (int c = 0; c < NCOLS; c++) {
		buf_put(&e->tmp, e->col[c].p, e->col[c].len);
		e->col[c].len = 0;
	}
	size_t bound = ZSTD_compressBound(e->tmp.len);
	uint8_t *out = malloc(bound);
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	size_t n = ZSTD_compress2(e->cctx, out, bound, e->tmp.p, e->tmp.len);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (ZSTD_isError(n))
		die(ZSTD_getErrorName(n));
	e->secs += (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
	free(out);
	e->raw += e->tmp.len;
	e->packed += n + GT_SKIPPABLE_PREFIX_SIZE + GT_BLOCK_HEADER_SIZE;
	e->nblocks++;
	e->block_len = 0;
}

/* Appends the record built in e->it to the block (all in column 0 unless F_COLUMNS). */
static void end_record(struct enc *e, int with_len, uint8_t tag)
{
	size_t total = 0;
	for (int c = 0; c < NCOLS; c++)
		total += e->it.col[c].len;
	if (e->block_len + total + 16 > e->block)
		flush_block(e);
	struct buf *head =
		&e->col[(e->flags & F_COLUMNS) ? (tag == GT_REC_CALL ? C_TOK : C_REC) : 0];
	if (with_len) {
		buf_put(head, &tag, 1);
		put_uv(head, total);
		e->block_len += 1 + uv_len(total);
	}
	for (int c = 0; c < NCOLS; c++) {
		struct buf *dst = &e->col[(e->flags & F_COLUMNS) ? c : 0];
		buf_put(dst, e->it.col[c].p, e->it.col[c].len);
		e->block_len += e->it.col[c].len;
		e->it.col[c].len = 0;
	}
}

/*
 * A STACK as trie nodes (heaptrack's way): the deepest node already known
 * (walking from the outermost frame), how many frames are new, then each new
 * frame as a delta from its parent's address.
 */
static void encode_stack_rec(struct enc *e, const struct rec *r)
{
	struct gt_cursor b = {raw + r->off, raw + r->off + r->len, 1};
	uint64_t id = gt_get_uv(&b), depth = gt_get_uv(&b);
	uint64_t ips[MAX_DEPTH + 1];
	if (depth > MAX_DEPTH)
		die("stack too deep");
	for (uint64_t i = 0; i < depth; i++)
		ips[i] = gt_get_uv(&b);
	struct buf *o = &e->it.col[C_REC];
	uint32_t node = 0;
	uint64_t i = depth, parent_ip = 0;
	for (; i > 0; i--) {
		size_t s = trie_slot(node, ips[i - 1]);
		if (!trie[s].id)
			break;
		node = trie[s].id;
		parent_ip = ips[i - 1];
	}
	put_uv(o, id);
	put_uv(o, node);
	put_uv(o, i);
	for (; i > 0; i--) {
		size_t s = trie_slot(node, ips[i - 1]);
		trie[s] = (struct tnode){node, ips[i - 1], ++ntnodes};
		put_sv(o, (int64_t)(ips[i - 1] - parent_ip));
		parent_ip = ips[i - 1];
		node = ntnodes;
	}
}

static void encode(struct enc *e)
{
	unsigned f = e->flags;
	memset(threads, 0, sizeof(threads));
	memset(map, 0, sizeof(*map) << MAP_BITS);
	memset(sites, 0, sizeof(*sites) << SITE_BITS);
	memset(trie, 0, sizeof(*trie) << TRIE_BITS);
	map_n = 0;
	nsites = ntnodes = 0;
	e->nallocs = 0;
	e->rng = 0x9e3779b9u;
	struct tstate *t = &threads[0];
	for (size_t i = 0; i < nrecs; i++) {
		const struct rec *r = &recs[i];
		if (r->tag == GT_REC_THREAD)
			t = &threads[r->serial & 1023];
		if (r->tag == GT_REC_IMAGE) {
			memset(threads, 0, sizeof(threads));
			memset(map, 0, sizeof(*map) << MAP_BITS);
			map_n = 0;
		}
		if (r->tag != GT_REC_CALL) {
			if (r->tag == GT_REC_STACK ? (f & D_STACKREC) : (f & D_OTHERREC))
				continue;
			if (r->tag == GT_REC_STACK && (f & F_STACK_TRIE))
				encode_stack_rec(e, r);
			else
				buf_put(&e->it.col[C_REC], raw + r->off, r->len);
			end_record(e, 1, r->tag);
			continue;
		}
		struct item *it = &e->it;
		int fn = r->fn;
		int dur_here = 1;
		if (f & F_DUR_SAMPLE) {
			e->rng ^= e->rng << 13;
			e->rng ^= e->rng >> 17;
			e->rng ^= e->rng << 5;
			dur_here = e->rng % 16 == 0;
		}
		if ((f & F_FREE_NULL) && fn == GT_FN_FREE && !r->a[0]) {
			e->now += (uint64_t)r->dts;
			buf_put(&it->col[C_TOK], &(uint8_t){0x80 | GT_FN_COUNT}, 1);
			end_record(e, 0, GT_REC_CALL);
			continue;
		}
		if (f & F_TOKEN)
			buf_put(&it->col[C_TOK],
				&(uint8_t){(uint8_t)(0x80 | (dur_here ? 0x40 : 0) | fn)}, 1);
		else if (!(f & D_TAGLEN))
			buf_put(&it->col[C_TOK], &(uint8_t){(uint8_t)fn}, 1);
		/* start times rebuilt from dts (blocks restart at their base: ignored) */
		e->now += (uint64_t)r->dts;
		int time_here = dur_here || !(f & F_TIME_SAMPLE);
		if (!(f & D_DTS) && time_here) {
			if (f & (F_DTS_US | F_DTS_MS | F_TIME_SAMPLE)) {
				/* deltas of quantized start times, from the last one written */
				uint64_t q = e->now >> ((f & F_DTS_MS)	 ? 20
							: (f & F_DTS_US) ? 10
									 : 0);
				put_sv(&it->col[C_DTS], (int64_t)(q - e->now_q));
				e->now_q = q;
			} else
				put_sv(&it->col[C_DTS], r->dts);
		}
		if (!(f & D_DUR) && dur_here) {
			uint64_t d = r->dur;
			if (f & F_DUR_LOG)
				d = (uint64_t)lround(8.0 * log2((double)d + 1.0));
			put_uv(&it->col[C_DUR], d);
		}
		int stack_here = !(f & D_STACK) && !(fn == GT_FN_FREE && (f & D_FREESTACK));
		int site_done = 0;
		if (stack_here && (f & F_SITE) && fn <= GT_FN_REALLOCARRAY) {
			/* id of (stack, sizes): new ones spelled out after a 0 */
			uint64_t a = 0, b = 0;
			int k = 0;
			for (const struct argspec *as = fns[fn].args; as->label; as++, k++)
				if (role_of(fn, as->label) == R_SIZE)
					b = a, a = r->a[k];
			int is_new;
			uint32_t id = site_intern(r->stack * 16 + (uint64_t)fn, a, b, &is_new);
			put_uv(&it->col[C_STACK], is_new ? 0 : id);
			if (is_new) {
				put_uv(&it->col[C_STACK], r->stack);
				k = 0;
				for (const struct argspec *as = fns[fn].args; as->label; as++, k++)
					if (role_of(fn, as->label) == R_SIZE)
						put_uv(&it->col[C_SIZE], r->a[k]);
			}
			site_done = 1;
		} else if (stack_here) {
			if (f & F_STACK_DELTA)
				put_sv(&it->col[C_STACK], (int64_t)(r->stack - t->last_stack));
			else if (f & F_STACK_MTF) {
				int k = 0;
				while (k < 16 && t->mtf[k] != r->stack)
					k++;
				put_uv(&it->col[C_STACK], k < 16 ? (uint64_t)k + 1 : 0);
				if (k == 16) {
					put_uv(&it->col[C_STACK], r->stack);
					k = 15;
				}
				memmove(t->mtf + 1, t->mtf, (size_t)k * sizeof(*t->mtf));
				t->mtf[0] = r->stack;
			} else
				put_uv(&it->col[C_STACK], r->stack);
			t->last_stack = r->stack;
		}
		int k = 0;
		uint64_t ptr = 0;
		for (const struct argspec *as = fns[fn].args; as->label; as++, k++) {
			enum role role = role_of(fn, as->label);
			uint64_t v = r->a[k];
			if (as->enc == 'T') {
				put_uv(&it->col[C_OTHER], r->t_len);
				buf_put(&it->col[C_OTHER], raw + r->t_off, r->t_len);
				continue;
			}
			switch (role) {
			case R_SIZE:
				if (!(f & D_SIZE) && !site_done)
					put_uv(&it->col[C_SIZE], v);
				break;
			case R_PTR:
				ptr = v;
				if (f & D_PTR)
					break;
				if (f & F_FREE_REF) {
					uint64_t got = v ? map_take(v) : 0;
					/* 0 NULL; odd: unknown pointer; even: age */
					if (!v)
						put_uv(&it->col[C_PTR], 0);
					else if (!got)
						put_uv(&it->col[C_PTR], 2 * v + 1);
					else
						put_uv(&it->col[C_PTR],
						       2 * (e->nallocs - (got - 1)));
				} else if (f & F_FREE_DELTA)
					put_sv(&it->col[C_PTR], (int64_t)(v - t->last_result));
				else
					put_uv(&it->col[C_PTR], v);
				break;
			case R_RESULT:
				if (!(f & D_RESULT)) {
					if (f & F_ADDR_DELTA)
						put_sv(&it->col[C_RESULT],
						       (int64_t)(v - (ptr ? ptr : t->last_result)));
					else
						put_uv(&it->col[C_RESULT], v);
				}
				if (v) {
					t->last_result = v;
					if (f & F_FREE_REF)
						map_put(v, e->nallocs);
					e->nallocs++;
				}
				break;
			default:
				if (as->enc == 'S')
					put_sv(&it->col[C_OTHER], (int64_t)v);
				else
					put_uv(&it->col[C_OTHER], v);
			}
		}
		end_record(e, !(f & (F_TOKEN | D_TAGLEN)), GT_REC_CALL);
	}
	flush_block(e);
}

struct variant {
	const char *name;
	unsigned flags;
};

static int show_columns;

static void run(const char *name, unsigned flags, int level, size_t block, uint64_t base)
{
	struct enc e = {.flags = flags, .level = level, .block = block};
	e.cctx = ZSTD_createCCtx();
	ZSTD_CCtx_setParameter(e.cctx, ZSTD_c_compressionLevel, level);
	ZSTD_CCtx_setParameter(e.cctx, ZSTD_c_checksumFlag, 1);
	encode(&e);
	printf("| %s | %.2f | %llu | %.2f | %+.1f%% | %.0f |\n", name,
	       (double)e.raw / (double)alloc_calls, (unsigned long long)e.packed,
	       (double)e.packed / (double)alloc_calls,
	       base ? 100.0 * ((double)e.packed - (double)base) / (double)base : 0.0,
	       e.secs * 1e9 / (double)calls);
	fflush(stdout);
	if (show_columns && (flags & F_COLUMNS)) {
		static const char *const names[NCOLS] = {
			"tokens",  "start times",      "durations", "stack/site ids", "sizes",
			"results", "free/realloc ptr", "mmap args", "other records"};
		printf("|   columns alone, B/alloc call: ");
		for (int c = 0; c < NCOLS; c++)
			printf("%s%s %.2f", c ? ", " : "", names[c],
			       (double)e.col_packed[c] / (double)alloc_calls);
		printf(" | | | | | |\n");
	}
	ZSTD_freeCCtx(e.cctx);
	for (int c = 0; c < NCOLS; c++)
		free(e.col[c].p), free(e.it.col[c].p);
	free(e.tmp.p);
}

static uint64_t measure(unsigned flags, int level, size_t block)
{
	struct enc e = {.flags = flags, .level = level, .block = block};
	e.cctx = ZSTD_createCCtx();
	ZSTD_CCtx_setParameter(e.cctx, ZSTD_c_compressionLevel, level);
	ZSTD_CCtx_setParameter(e.cctx, ZSTD_c_checksumFlag, 1);
	encode(&e);
	ZSTD_freeCCtx(e.cctx);
	for (int c = 0; c < NCOLS; c++)
		free(e.col[c].p), free(e.it.col[c].p);
	free(e.tmp.p);
	return e.packed;
}

int main(int argc, char **argv)
{
	int level = 1;
	size_t block = 1u << 20;
	int opt;
	while ((opt = getopt(argc, argv, "l:b:")) != -1) {
		if (opt == 'l')
			level = atoi(optarg);
		else if (opt == 'b')
			block = (size_t)strtoull(optarg, NULL, 10);
		else
			return 2;
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "usage: trace_bytes [-l LEVEL] [-b BLOCK_BYTES] TRACE.zst\n");
		return 2;
	}
	read_trace(argv[optind]);
	if (blocks2) {
		if (raw_len)
			die("a trace mixing 1.x and 2.x blocks");
		column_report();
		return 0;
	}
	parse();
	map = calloc((size_t)1 << MAP_BITS, sizeof(*map));
	sites = calloc((size_t)1 << SITE_BITS, sizeof(*sites));
	trie = calloc((size_t)1 << TRIE_BITS, sizeof(*trie));
	raw_report();
	cache_report();

	uint64_t base = measure(0, level, block);
	printf("## Field shares of the compressed size (zstd level %d, blocks of %zu bytes)\n\n",
	       level, block);
	printf("Model check: the file is %llu bytes; the same records re-compressed here: %llu.\n"
	       "Each row leaves one field out: its share is what the file loses.\n\n",
	       (unsigned long long)file_bytes, (unsigned long long)base);
	printf("| left out | compressed bytes | B/alloc call | share of compressed |\n"
	       "|---|---|---|---|\n");
	static const struct variant drops[] = {
		{"CALL tag+len", D_TAGLEN},
		{"dts (start time)", D_DTS},
		{"duration", D_DUR},
		{"stack id (all calls)", D_STACK},
		{"stack id of free only", D_FREESTACK},
		{"sizes (size, nmemb, align)", D_SIZE},
		{"results (allocated addresses)", D_RESULT},
		{"ptr (free, realloc)", D_PTR},
		{"STACK records", D_STACKREC},
		{"other records (THREAD, USAGE, MODULE, ...)", D_OTHERREC},
		{"dts + duration", D_DTS | D_DUR},
		{"results + ptr", D_RESULT | D_PTR},
	};
	for (size_t i = 0; i < sizeof(drops) / sizeof(*drops); i++) {
		uint64_t n = measure(drops[i].flags, level, block);
		printf("| %s | %llu | %.2f | %.1f%% |\n", drops[i].name, (unsigned long long)n,
		       (double)n / (double)alloc_calls,
		       100.0 * ((double)base - (double)n) / (double)base);
		fflush(stdout);
	}

	printf("\n## Encodings, each alone against today's format\n\n");
	printf("| encoding | raw B/alloc call | compressed bytes | B/alloc call | vs today | "
	       "zstd ns/call |\n|---|---|---|---|---|---|\n");
	static const struct variant single[] = {
		{"today's format", 0},
		{"one-byte token (tag+len+fn)", F_TOKEN},
		{"result as delta from last result", F_ADDR_DELTA},
		{"free ptr as delta from last result", F_FREE_DELTA},
		{"free ptr as reference to its allocation", F_FREE_REF},
		{"stack id delta", F_STACK_DELTA},
		{"stack id move-to-front(16)", F_STACK_MTF},
		{"site id (stack+size interned)", F_SITE},
		{"no stack on free", D_FREESTACK},
		{"STACK as trie suffix", F_STACK_TRIE},
		{"duration log-scaled, 8/octave (lossy)", F_DUR_LOG},
		{"duration on 1 in 16 calls", F_TOKEN | F_DUR_SAMPLE},
		{"start time in ~1 us (lossy)", F_DTS_US},
		{"start time in ~1 ms (lossy)", F_DTS_MS},
		{"start+duration on 1 in 16 calls", F_TOKEN | F_DUR_SAMPLE | F_TIME_SAMPLE},
		{"no time at all (bound)", D_DTS | D_DUR},
		{"columns per block", F_COLUMNS},
	};
	for (size_t i = 0; i < sizeof(single) / sizeof(*single); i++)
		run(single[i].name, single[i].flags, level, block, base);

	const unsigned cols = F_TOKEN | F_COLUMNS;
	printf("\n## Encodings, each alone on top of token + columns\n\n");
	printf("| encoding | raw B/alloc call | compressed bytes | B/alloc call | vs today | "
	       "zstd ns/call |\n|---|---|---|---|---|---|\n");
	for (size_t i = 0; i < sizeof(single) / sizeof(*single); i++) {
		char name[96];
		snprintf(name, sizeof(name), "columns + %s", single[i].name);
		run(name, cols | single[i].flags, level, block, base);
	}

	printf("\n## A plan, step by step (each row adds to the one above)\n\n");
	printf("| step | raw B/alloc call | compressed bytes | B/alloc call | vs today | "
	       "zstd ns/call |\n|---|---|---|---|---|---|\n");
	unsigned acc = 0;
	static const struct variant cumul[] = {
		{"today's format", 0},
		{"+ one-byte token", F_TOKEN},
		{"+ columns per block", F_COLUMNS},
		{"+ no stack on free", D_FREESTACK},
		{"+ duration on 1 in 16 calls", F_DUR_SAMPLE},
		{"+ start time in ~1 us", F_DTS_US},
		{"+ free as reference to its allocation", F_FREE_REF},
		{"+ site id", F_SITE},
		{"+ STACK trie", F_STACK_TRIE},
		{"+ free(NULL) as a bare token", F_FREE_NULL},
		{"+ no result addresses (frees refer to allocations)", D_RESULT},
	};
	for (size_t i = 0; i < sizeof(cumul) / sizeof(*cumul); i++) {
		acc |= cumul[i].flags;
		run(cumul[i].name, acc, level, block, base);
	}
	show_columns = 1;
	run("  the last row's columns", acc, level, block, base);
	unsigned lossy = acc & ~F_DTS_US;
	run("  same, start time in ~1 ms instead", lossy | F_DTS_MS, level, block, base);
	run("  same, start time on the 1 in 16 timed calls only", lossy | F_TIME_SAMPLE, level,
	    block, base);
	run("  same, no time at all (bound)", lossy | D_DTS | D_DUR, level, block, base);
	show_columns = 0;
	printf("\n");
	static const struct variant levels[] = {{"today's format", 0}};
	for (int l = 1; l <= 19; l += (l < 3 ? 2 : l < 9 ? 3 : 10)) {
		char name[64];
		snprintf(name, sizeof(name), "today's format, zstd -%d", l);
		run(name, levels[0].flags, l, block, base);
		snprintf(name, sizeof(name), "all of the above, zstd -%d", l);
		run(name, acc, l, block, base);
	}
	return 0;
}
