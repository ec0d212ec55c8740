/*
 * Heap accounting. See heap.h.
 *
 * Temporary allocations follow heaptrack's definition: an allocation freed
 * before its thread makes another allocation. Each allocation remembers
 * its thread and that thread's allocation count at the time; a free in the
 * same thread with the count unchanged is temporary. realloc is a free and
 * an allocation, as in heaptrack.
 */
#include "heap.h"

#include <stdlib.h>
#include <string.h>

#include "die.h"

struct gt_alloc {
	uint64_t ptr; /* key */
	uint64_t size, t_ns, end_ns, stack, thread, thread_seq;
	UT_hash_handle hh;
};

void gt_heap_init(struct gt_heap *h)
{
	memset(h, 0, sizeof(*h));
}

static struct gt_stack_counts *counts(struct gt_heap *h, uint64_t stack)
{
	struct gt_stack_counts *s;
	HASH_FIND(hh, h->stacks, &stack, sizeof(stack), s);
	if (!s) {
		s = gt_xcalloc(1, sizeof(*s));
		s->stack = stack;
		HASH_ADD(hh, h->stacks, stack, sizeof(s->stack), s);
	}
	return s;
}

static unsigned size_bucket(uint64_t size)
{
	unsigned b = 0;
	while (b < 64 && ((uint64_t)1 << b) < size)
		b++;
	return b;
}

static unsigned lifetime_bucket(uint64_t ns)
{
	unsigned b = 0;
	for (uint64_t limit = 1000; b < GT_LIFETIME_BUCKETS - 1 && ns >= limit; limit *= 10)
		b++;
	return b;
}

static void forget(struct gt_heap *h, struct gt_alloc **table, struct gt_alloc *a)
{
	HASH_DEL(*table, a);
	h->current_bytes -= a->size;
	h->live_count--;
	a->hh.next = h->spare;
	h->spare = a;
}

void gt_heap_alloc(struct gt_heap *h, struct gt_heap_thread *th, uint64_t ptr, uint64_t size,
		   uint64_t stack, uint64_t t, uint64_t end)
{
	struct gt_alloc *a, *old;
	HASH_FIND(hh, h->live, &ptr, sizeof(ptr), a);
	if (a) {
		/* Set aside; a block already set aside at ptr had its free
		 * go unseen (an untraced path): drop it. */
		HASH_FIND(hh, h->displaced, &ptr, sizeof(ptr), old);
		if (old)
			forget(h, &h->displaced, old);
		HASH_DEL(h->live, a);
		HASH_ADD(hh, h->displaced, ptr, sizeof(a->ptr), a);
	}
	if (h->spare) {
		a = h->spare;
		h->spare = a->hh.next;
	} else {
		a = gt_xmalloc(sizeof(*a));
	}
	th->allocations++;
	a->ptr = ptr;
	a->size = size;
	a->t_ns = t;
	a->end_ns = end;
	a->stack = stack;
	a->thread = th->serial;
	a->thread_seq = th->allocations;
	HASH_ADD(hh, h->live, ptr, sizeof(a->ptr), a);
	h->live_count++;
	h->allocations++;
	h->allocated_bytes += size;
	h->current_bytes += size;
	if (h->current_bytes > h->peak_bytes) {
		h->peak_bytes = h->current_bytes;
		h->peak_ns = t;
	}
	h->sizes[size_bucket(size)]++;
	struct gt_stack_counts *s = counts(h, stack);
	s->allocations++;
	s->bytes += size;
}

void gt_heap_free(struct gt_heap *h, struct gt_heap_thread *th, uint64_t ptr, uint64_t t)
{
	struct gt_alloc *a, *d, **table = &h->live;
	h->frees++;
	HASH_FIND(hh, h->live, &ptr, sizeof(ptr), a);
	HASH_FIND(hh, h->displaced, &ptr, sizeof(ptr), d);
	/* A free that started before the live block's allocation ended
	 * cannot be its free: it is the set-aside block's. */
	if (d && (!a || t < a->end_ns)) {
		a = d;
		table = &h->displaced;
	}
	if (!a) {
		h->untracked_frees++;
		return;
	}
	if (a->thread == th->serial && a->thread_seq == th->allocations) {
		h->temporary++;
		counts(h, a->stack)->temporary++;
	}
	h->lifetime[lifetime_bucket(t >= a->t_ns ? t - a->t_ns : 0)]++;
	forget(h, table, a);
}

static void leak(struct gt_heap *h, struct gt_alloc *table)
{
	struct gt_alloc *a, *tmp;
	HASH_ITER(hh, table, a, tmp)
	{
		struct gt_stack_counts *s = counts(h, a->stack);
		s->leaked_allocations++;
		s->leaked_bytes += a->size;
		h->leaked_allocations++;
		h->leaked_bytes += a->size;
	}
}

void gt_heap_finish(struct gt_heap *h)
{
	leak(h, h->live);
	leak(h, h->displaced);
}

const struct gt_stack_counts *gt_heap_stack(const struct gt_heap *h, uint64_t stack)
{
	struct gt_stack_counts *s;
	HASH_FIND(hh, h->stacks, &stack, sizeof(stack), s);
	return s;
}

const struct gt_stack_counts *gt_heap_stacks_first(const struct gt_heap *h)
{
	return h->stacks;
}

const struct gt_stack_counts *gt_heap_stacks_next(const struct gt_stack_counts *s)
{
	return s->hh.next;
}

void gt_heap_release(struct gt_heap *h)
{
	struct gt_alloc *a, *tmp;
	HASH_ITER(hh, h->live, a, tmp)
	{
		HASH_DEL(h->live, a);
		free(a);
	}
	HASH_ITER(hh, h->displaced, a, tmp)
	{
		HASH_DEL(h->displaced, a);
		free(a);
	}
	while (h->spare) {
		a = h->spare;
		h->spare = a->hh.next;
		free(a);
	}
	struct gt_stack_counts *s, *stmp;
	HASH_ITER(hh, h->stacks, s, stmp)
	{
		HASH_DEL(h->stacks, s);
		free(s);
	}
}
