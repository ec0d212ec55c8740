/*
 * Heap accounting. See heap.h.
 *
 * Temporary allocations follow heaptrack's definition: an allocation freed
 * before its thread makes another allocation. Each thread remembers its
 * latest allocation until the next one; a free of that address by the same
 * thread is temporary. realloc is a free and an allocation, as in heaptrack.
 */
#include "heap.h"

#include <stdlib.h>
#include <string.h>
#include <uthash.h>

#include "die.h"

struct gt_stack_index {
	uint64_t stack; /* key */
	size_t index;
	UT_hash_handle hh;
};

void gt_heap_init(struct gt_heap *h)
{
	memset(h, 0, sizeof(*h));
}

static struct gt_stack_counts *new_counts(struct gt_heap *h, uint64_t stack, size_t *index)
{
	if (h->nstacks == h->stacks_cap) {
		h->stacks_cap = h->stacks_cap ? 2 * h->stacks_cap : 64;
		h->stacks = gt_xrealloc(h->stacks, h->stacks_cap * sizeof(*h->stacks));
	}
	*index = h->nstacks++;
	struct gt_stack_counts *s = &h->stacks[*index];
	memset(s, 0, sizeof(*s));
	s->stack = stack;
	return s;
}

/* The counters of a stack new to the heap, or of an id kept in the hash table. */
static struct gt_stack_counts *new_or_sparse_counts(struct gt_heap *h, uint64_t stack)
{
	/* An id kept there stays there, even once the stacks seen reach it. */
	struct gt_stack_index *e = NULL;
	if (h->sparse)
		HASH_FIND(hh, h->sparse, &stack, sizeof(stack), e);
	if (e)
		return &h->stacks[e->index];
	size_t index;
	struct gt_stack_counts *s = new_counts(h, stack, &index);
	/*
	 * Ids come dense from 1, each after its STACK record: one far beyond
	 * the stacks seen is exotic input, which would size the array by one
	 * id (a crafted 24 KB trace of 300 images took 1.25 GB).
	 */
	if (stack < GT_DENSE_STACK_IDS && stack <= 2 * h->nstacks + 1024) {
		if (stack >= h->dense_cap) {
			size_t cap = h->dense_cap ? h->dense_cap : 256;
			while (cap <= stack)
				cap *= 2;
			h->dense = gt_xrealloc(h->dense, cap * sizeof(*h->dense));
			memset(h->dense + h->dense_cap, 0,
			       (cap - h->dense_cap) * sizeof(*h->dense));
			h->dense_cap = cap;
		}
		h->dense[stack] = (uint32_t)index + 1;
		return s;
	}
	e = gt_xcalloc(1, sizeof(*e));
	e->stack = stack;
	e->index = index;
	HASH_ADD(hh, h->sparse, stack, sizeof(e->stack), e);
	return s;
}

/* One lookup per allocation and per free: the common case in line. */
static inline struct gt_stack_counts *counts(struct gt_heap *h, uint64_t stack)
{
	if (stack < h->dense_cap && h->dense[stack])
		return &h->stacks[h->dense[stack] - 1];
	return new_or_sparse_counts(h, stack);
}

/* The least b with 2^b >= size (64 above 2^63): the bit length of size - 1. */
static unsigned size_bucket(uint64_t size)
{
	return size <= 1 ? 0 : 64 - (unsigned)__builtin_clzll(size - 1);
}

static unsigned lifetime_bucket(uint64_t ns)
{
	unsigned b = 0;
	for (uint64_t limit = 1000; b < GT_LIFETIME_BUCKETS - 1 && ns >= limit; limit *= 10)
		b++;
	return b;
}

/* What s held at the latest peak, if it has not changed since (peak_seen). */
static void keep_peak(const struct gt_heap *h, struct gt_stack_counts *s)
{
	if (s->peak_seen != h->peak_gen) {
		s->at_peak_bytes = s->live_bytes;
		s->peak_seen = h->peak_gen;
	}
}

static void forget(struct gt_heap *h, struct gt_ptrmap *table, struct gt_live *a)
{
	struct gt_stack_counts *s = counts(h, a->stack);
	keep_peak(h, s);
	s->live_bytes -= a->size;
	h->current_bytes -= a->size;
	if (a->size <= GT_HUGE_BLOCK)
		h->current_small_bytes -= gt_heap_chunk_bytes(a->size);
	gt_ptrmap_del(table, a);
}

void gt_heap_alloc(struct gt_heap *h, struct gt_heap_thread *th, uint64_t ptr, uint64_t size,
		   uint64_t stack, uint64_t t, uint64_t end)
{
	int existed;
	struct gt_live *a = gt_ptrmap_claim(&h->live, ptr, &existed);
	if (existed) {
		/* Set aside; a block already set aside at ptr had its free
		 * go unseen (an untraced path): drop it. */
		struct gt_live *old = gt_ptrmap_get(&h->displaced, ptr);
		if (old)
			forget(h, &h->displaced, old);
		gt_ptrmap_put(&h->displaced, a);
	}
	th->last_ptr = ptr;
	uint64_t dur = end > t ? end - t : 0;
	/* Stack ids are dense from 1: one beyond 32 bits is corrupt input,
	 * kept apart as UINT32_MAX rather than aliasing a real stack. */
	struct gt_live e = {ptr, size, t, stack < UINT32_MAX ? (uint32_t)stack : UINT32_MAX,
			    dur < UINT32_MAX ? (uint32_t)dur : UINT32_MAX};
	*a = e;
	struct gt_stack_counts *s = counts(h, e.stack);
	s->allocations++;
	s->bytes += size;
	keep_peak(h, s);
	s->live_bytes += size;
	h->allocations++;
	h->allocated_bytes += size;
	h->current_bytes += size;
	if (h->current_bytes > h->peak_bytes) {
		h->peak_bytes = h->current_bytes;
		h->peak_ns = t;
		h->peak_gen++;
	}
	h->sizes[size_bucket(size)]++;
	if (size > GT_HUGE_BLOCK) {
		h->huge_bytes += size;
	} else if ((h->current_small_bytes += gt_heap_chunk_bytes(size)) > h->peak_small_bytes) {
		h->peak_small_bytes = h->current_small_bytes;
	}
}

void gt_heap_free(struct gt_heap *h, struct gt_heap_thread *th, uint64_t ptr, uint64_t t)
{
	struct gt_ptrmap *table = &h->live;
	struct gt_live *a = gt_ptrmap_get(&h->live, ptr);
	struct gt_live *d = h->displaced.count ? gt_ptrmap_get(&h->displaced, ptr) : NULL;
	/* A free that started before the live block's allocation ended
	 * cannot be its free: it is the set-aside block's. */
	if (d && (!a || t < a->t_ns + a->dur_ns)) {
		a = d;
		table = &h->displaced;
	}
	if (!a) {
		h->untracked_frees++;
		return;
	}
	if (th->last_ptr == ptr && table == &h->live) {
		h->temporary++;
		counts(h, a->stack)->temporary++;
	}
	if (th->last_ptr == ptr)
		th->last_ptr = 0;
	h->lifetime[lifetime_bucket(t >= a->t_ns ? t - a->t_ns : 0)]++;
	forget(h, table, a);
}

static void leak(struct gt_heap *h, const struct gt_ptrmap *table)
{
	for (size_t i = 0; i < gt_ptrmap_capacity(table); i++) {
		const struct gt_live *a = &table->slots[i];
		if (!a->ptr)
			continue;
		struct gt_stack_counts *s = counts(h, a->stack);
		s->leaked_allocations++;
		s->leaked_bytes += a->size;
		h->leaked_allocations++;
		h->leaked_bytes += a->size;
	}
}

void gt_heap_finish(struct gt_heap *h)
{
	leak(h, &h->live);
	leak(h, &h->displaced);
	for (size_t i = 0; i < h->nstacks; i++)
		keep_peak(h, &h->stacks[i]);
}

void gt_heap_forget(struct gt_heap *h)
{
	struct gt_heap kept = *h;
	memset(&kept.live, 0, sizeof(kept.live));
	memset(&kept.displaced, 0, sizeof(kept.displaced));
	kept.stacks = NULL;
	kept.nstacks = kept.stacks_cap = 0;
	kept.dense = NULL;
	kept.dense_cap = 0;
	kept.sparse = NULL;
	gt_heap_release(h);
	*h = kept; /* zeroed maps are empty ones (gt_heap_init) */
}

void gt_heap_release(struct gt_heap *h)
{
	gt_ptrmap_release(&h->live);
	gt_ptrmap_release(&h->displaced);
	struct gt_stack_index *e, *tmp;
	HASH_ITER(hh, h->sparse, e, tmp)
	{
		HASH_DEL(h->sparse, e);
		free(e);
	}
	free(h->stacks);
	free(h->dense);
	memset(h, 0, sizeof(*h));
}
