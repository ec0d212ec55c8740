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
 *
 * What thrashing costs: under git's defaults a region is mapped once and
 * stays, so the maps of regions mapped before, the unmaps that evicted
 * windows, and the page faults and kernel time while windows of regions
 * mapped before were live (struct gt_window_cost) are what lowered limits
 * add.
 *
 * The window advice replays git's LRU on the pack maps and unmaps without
 * a limit (window_advice.h): every pack map and every whole pack window
 * unmapped goes to it, and any other map call tells it that the unmaps
 * before were git's own, not an eviction.
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
	gt_window_sim_init(&m->unlimited, UINT64_MAX);
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
	m->mapped_bytes -= piece->len <= m->mapped_bytes ? piece->len : m->mapped_bytes;
	if (piece->kind != GT_MAP_PACK)
		return;
	m->pack_mapped_bytes -=
		piece->len <= m->pack_mapped_bytes ? piece->len : m->pack_mapped_bytes;
	/* A window counts as gone when all of it is (git unmaps whole windows). */
	if (piece->start == orig->start && piece->end == orig->end) {
		uint64_t *live = orig->again ? &m->live_again : &m->live_first;
		*live -= *live > 0;
	}
}

/* Before a map call changes the live windows: the period that ends now. */
static void end_period(struct gt_maps *m)
{
	m->period_first = m->live_first;
	m->period_again = m->live_again;
}

void gt_maps_usage(struct gt_maps *m, uint64_t faults, uint64_t system_ns, uint64_t tracer_ns)
{
	double windows = (double)(m->period_first + m->period_again);
	if (windows == 0)
		return;
	/* Net, even below 0: ticks put a period's kernel time in the next. */
	double sys = (double)system_ns - (double)tracer_ns;
	double again = (double)m->period_again / windows, first = 1 - again;
	m->again.faults += (double)faults * again;
	m->again.system_ns += sys * again;
	m->first.faults += (double)faults * first;
	m->first.system_ns += sys * first;
	if (m->period_again)
		m->again.any_system_ns += sys;
	if (m->period_first)
		m->first.any_system_ns += sys;
	m->usage_periods++;
}

/* Counts a map of a region; returns 1 if the region was mapped before. */
static int note_region(struct gt_maps *m, enum gt_map_kind kind, uint32_t path_id, uint64_t offset,
		       uint64_t len)
{
	struct gt_region *r;
	struct region_key key;
	memset(&key, 0, sizeof(key));
	key.path_id = path_id;
	key.offset = offset;
	key.len = len;
	HASH_FIND(hh, m->regions, &key, sizeof(key), r);
	int again = r != NULL;
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
	return again;
}

void gt_maps_mmap(struct gt_maps *m, uint64_t result, uint64_t len, uint64_t offset,
		  enum gt_map_kind kind, uint32_t path_id, int failed, uint64_t page_size,
		  uint64_t t, uint64_t dur_ns)
{
	end_period(m);
	if (failed) {
		m->failed_calls++;
		return;
	}
	if (kind == GT_MAP_PACK && m->evicting) {
		m->again_calls_ns += m->evict_run_ns;
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
	m->evict_run_ns = 0;
	if (kind == GT_MAP_PACK)
		gt_window_sim_map(&m->unlimited, path_id, offset, len);
	else
		gt_window_sim_settle(&m->unlimited);
	int again = kind != GT_MAP_ANONYMOUS && note_region(m, kind, path_id, offset, len);
	if (kind == GT_MAP_PACK) {
		m->live_again += again;
		m->live_first += !again;
		if (again)
			m->again_calls_ns += dur_ns;
	}
	/* A new mapping replaces whatever it overlaps (MAP_FIXED). */
	uint64_t end = result + page_round(len, page_size);
	gt_intervals_remove(&m->live, result, end, unmapped_piece, m);
	struct gt_interval iv = {result, end, len, offset, kind, path_id, (uint32_t)again};
	gt_intervals_insert(&m->live, &iv);
	m->kind[kind].mmaps++;
	m->kind[kind].bytes += len;
	m->mapped_bytes += len;
	if (kind == GT_MAP_PACK)
		m->pack_mapped_bytes += len;
	set_mapped(m, t);
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
		if (piece->start == orig->start && piece->end == orig->end)
			gt_window_sim_unmap(&c->m->unlimited, orig->path_id, orig->file_off,
					    orig->len);
	}
	c->hit[piece->kind] = 1;
	unmapped_piece(c->m, piece, orig);
}

void gt_maps_munmap(struct gt_maps *m, uint64_t addr, uint64_t len, int failed, uint64_t page_size,
		    uint64_t dur_ns)
{
	end_period(m);
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
	if (n && !c.pack_hits) {
		m->evicting = 0;
		m->evict_run_ns = 0;
		gt_window_sim_settle(&m->unlimited);
	} else if (c.pack_hits) {
		m->evict_run_ns += dur_ns; /* an eviction if a pack map follows */
	}
}

void gt_maps_mremap(struct gt_maps *m, uint64_t old_addr, uint64_t old_len, uint64_t new_len,
		    uint64_t result, int failed, uint64_t page_size, uint64_t t)
{
	end_period(m);
	m->evicting = 0;
	m->evict_run_ns = 0;
	gt_window_sim_settle(&m->unlimited);
	if (failed) {
		m->failed_calls++;
		return;
	}
	const struct gt_interval *hit = gt_intervals_find(&m->live, old_addr);
	struct gt_interval moved = {0, 0, 0, 0, GT_MAP_ANONYMOUS, 0, 0};
	if (hit)
		moved = *hit;
	uint64_t file_off = hit ? hit->file_off + (old_addr - hit->start) : 0;
	gt_intervals_remove(&m->live, old_addr, old_addr + page_round(old_len, page_size),
			    unmapped_piece, m);
	uint64_t end = result + page_round(new_len, page_size);
	gt_intervals_remove(&m->live, result, end, unmapped_piece, m);
	struct gt_interval iv = {result,     end,	    new_len,	file_off,
				 moved.kind, moved.path_id, moved.again};
	gt_intervals_insert(&m->live, &iv);
	m->kind[moved.kind].mremaps++;
	m->mapped_bytes += new_len;
	if (moved.kind == GT_MAP_PACK) {
		m->pack_mapped_bytes += new_len;
		m->live_again += moved.again;
		m->live_first += !moved.again;
	}
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
	gt_window_sim_settle(&m->unlimited);
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
	gt_window_sim_release(&m->unlimited);
}

void gt_maps_forget(struct gt_maps *m)
{
	gt_maps_release(m);
	m->regions = NULL;
	memset(&m->live, 0, sizeof(m->live));
	m->live_first = m->live_again = 0;
	m->period_first = m->period_again = 0;
	m->evicting = 0;
	gt_window_sim_init(&m->unlimited, UINT64_MAX);
}
