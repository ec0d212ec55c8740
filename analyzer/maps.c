/*
 * Per-image map accounting. See maps.h.
 *
 * core.packedGitLimit bounds: git's use_pack() adds a new window's length
 * to the pack bytes mapped and, while that exceeds the limit, unmaps the
 * least-recently-used window, then maps the new one. So a run of pack
 * munmaps followed by a pack mmap (nothing else mapped in between) is an
 * eviction, and with M the pack bytes mapped before the run, L the bytes
 * before its last unmap, A after it and n the new length:
 *   limit >= M (the state before was within the limit),
 *   limit >= A + n when A > 0 (eviction stopped because it fit),
 *   limit <  L + n (else the last unmap would not have happened).
 * Without any eviction we only know limit >= the peak pack bytes mapped.
 */
#include "maps.h"

#include <stdlib.h>
#include <string.h>
#include <uthash.h>

#include "die.h"
#include "window.h"

struct region_key {
	uint64_t path_id, offset, len;
};

struct gt_region {
	struct region_key key;
	uint64_t maps;
	uint32_t kind;
	UT_hash_handle hh;
};

void gt_maps_init(struct gt_maps *m)
{
	memset(m, 0, sizeof(*m));
	m->limit_below = UINT64_MAX;
}

static uint64_t page_round(uint64_t len, uint64_t page)
{
	if (!page || (page & (page - 1)))
		page = 4096;
	return len + page - 1 < len ? UINT64_MAX & ~(page - 1) : (len + page - 1) & ~(page - 1);
}

static void set_mapped(struct gt_maps *m, uint64_t t)
{
	if (m->mapped_bytes > m->peak_mapped_bytes) {
		m->peak_mapped_bytes = m->mapped_bytes;
		m->peak_ns = t;
	}
	if (m->pack_mapped_bytes > m->peak_pack_mapped_bytes)
		m->peak_pack_mapped_bytes = m->pack_mapped_bytes;
}

static void unmapped_piece(void *ctx, const struct gt_interval *piece,
			   const struct gt_interval *orig)
{
	struct gt_maps *m = ctx;
	(void)orig;
	m->mapped_bytes -= piece->len <= m->mapped_bytes ? piece->len : m->mapped_bytes;
	if (piece->kind == GT_MAP_PACK)
		m->pack_mapped_bytes -=
			piece->len <= m->pack_mapped_bytes ? piece->len : m->pack_mapped_bytes;
}

static void note_region(struct gt_maps *m, enum gt_map_kind kind, uint32_t path_id, uint64_t offset,
			uint64_t len)
{
	struct gt_region *r;
	struct region_key key;
	memset(&key, 0, sizeof(key));
	key.path_id = path_id;
	key.offset = offset;
	key.len = len;
	HASH_FIND(hh, m->regions, &key, sizeof(key), r);
	if (r) {
		m->remapped_regions++;
	} else {
		r = gt_xcalloc(1, sizeof(*r));
		r->key = key;
		r->kind = kind;
		HASH_ADD(hh, m->regions, key, sizeof(key), r);
		if (kind == GT_MAP_PACK)
			m->distinct_pack_regions++;
	}
	r->maps++;
}

void gt_maps_mmap(struct gt_maps *m, uint64_t result, uint64_t len, uint64_t offset,
		  enum gt_map_kind kind, uint32_t path_id, int failed, uint64_t page_size,
		  uint64_t t)
{
	if (failed) {
		m->failed_calls++;
		return;
	}
	if (kind == GT_MAP_PACK && m->evicting) {
		/* See the comment at the top of this file. */
		uint64_t lo = m->evict_first_before;
		if (m->pack_mapped_bytes && m->pack_mapped_bytes + len > lo)
			lo = m->pack_mapped_bytes + len;
		if (lo > m->limit_at_least)
			m->limit_at_least = lo;
		if (m->evict_last_before + len < m->limit_below)
			m->limit_below = m->evict_last_before + len;
		m->evictions++;
	}
	m->evicting = 0;
	/* A new mapping replaces whatever it overlaps (MAP_FIXED). */
	uint64_t end = result + page_round(len, page_size);
	gt_intervals_remove(&m->live, result, end, unmapped_piece, m);
	struct gt_interval iv = {result, end, len, offset, kind, path_id};
	gt_intervals_insert(&m->live, &iv);
	m->kind[kind].mmaps++;
	m->kind[kind].bytes += len;
	m->mapped_bytes += len;
	if (kind == GT_MAP_PACK)
		m->pack_mapped_bytes += len;
	set_mapped(m, t);
	if (kind != GT_MAP_ANONYMOUS)
		note_region(m, kind, path_id, offset, len);
}

struct munmap_ctx {
	struct gt_maps *m;
	int hit[GT_MAP_KIND_COUNT];
	int pack_hits;
};

static void munmap_piece(void *ctx, const struct gt_interval *piece, const struct gt_interval *orig)
{
	struct munmap_ctx *c = ctx;
	if (piece->kind == GT_MAP_PACK) {
		/* Pack bytes mapped before this window goes: for the bounds. */
		if (!c->m->evicting)
			c->m->evict_first_before = c->m->pack_mapped_bytes;
		c->m->evict_last_before = c->m->pack_mapped_bytes;
		c->m->evicting = 1;
		c->pack_hits++;
	}
	c->hit[piece->kind] = 1;
	unmapped_piece(c->m, piece, orig);
}

void gt_maps_munmap(struct gt_maps *m, uint64_t addr, uint64_t len, int failed, uint64_t page_size)
{
	if (failed) {
		m->failed_calls++;
		return;
	}
	struct munmap_ctx c = {m, {0}, 0};
	size_t n = gt_intervals_remove(&m->live, addr, addr + page_round(len, page_size),
				       munmap_piece, &c);
	if (!n)
		m->untracked_munmaps++;
	for (int k = 0; k < GT_MAP_KIND_COUNT; k++)
		m->kind[k].munmaps += c.hit[k];
	if (n && !c.pack_hits)
		m->evicting = 0;
}

void gt_maps_mremap(struct gt_maps *m, uint64_t old_addr, uint64_t old_len, uint64_t new_len,
		    uint64_t result, int failed, uint64_t page_size, uint64_t t)
{
	m->evicting = 0;
	if (failed) {
		m->failed_calls++;
		return;
	}
	const struct gt_interval *hit = gt_intervals_find(&m->live, old_addr);
	struct gt_interval moved = {0, 0, 0, 0, GT_MAP_ANONYMOUS, 0};
	if (hit)
		moved = *hit;
	uint64_t file_off = hit ? hit->file_off + (old_addr - hit->start) : 0;
	gt_intervals_remove(&m->live, old_addr, old_addr + page_round(old_len, page_size),
			    unmapped_piece, m);
	uint64_t end = result + page_round(new_len, page_size);
	gt_intervals_remove(&m->live, result, end, unmapped_piece, m);
	struct gt_interval iv = {result, end, new_len, file_off, moved.kind, moved.path_id};
	gt_intervals_insert(&m->live, &iv);
	m->kind[moved.kind].mremaps++;
	m->mapped_bytes += new_len;
	if (moved.kind == GT_MAP_PACK)
		m->pack_mapped_bytes += new_len;
	set_mapped(m, t);
}

uint64_t gt_maps_inferred_window(const struct gt_maps *m)
{
	size_t n = 0;
	const struct gt_region *r;
	for (r = m->regions; r; r = r->hh.next)
		n += r->kind == GT_MAP_PACK;
	struct gt_window_region *v = gt_xcalloc(n, sizeof(*v));
	size_t i = 0;
	for (r = m->regions; r; r = r->hh.next)
		if (r->kind == GT_MAP_PACK)
			v[i++] = (struct gt_window_region){r->key.offset, r->key.len, r->maps};
	uint64_t w = gt_window_infer(v, n);
	free(v);
	return w;
}

double gt_maps_thrash_ratio(const struct gt_maps *m)
{
	if (!m->distinct_pack_regions)
		return 0;
	return (double)m->kind[GT_MAP_PACK].mmaps / (double)m->distinct_pack_regions;
}

void gt_maps_finish(struct gt_maps *m)
{
	if (m->peak_pack_mapped_bytes > m->limit_at_least)
		m->limit_at_least = m->peak_pack_mapped_bytes;
}

void gt_maps_release(struct gt_maps *m)
{
	struct gt_region *r, *tmp;
	HASH_ITER(hh, m->regions, r, tmp)
	{
		HASH_DEL(m->regions, r);
		free(r);
	}
	gt_intervals_release(&m->live);
}
