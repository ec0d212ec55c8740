/*
 * The live-allocation table: an open-addressing hash map from a block's
 * address to what the heap accounting keeps about it. It takes one lookup
 * per traced call, so it trades uthash's generality (a node per entry,
 * pointer chasing) for inline 32-byte slots and linear probing: usually
 * one cache line per lookup. Memory: 2–4 slots per live allocation.
 */
#ifndef GT_PTRMAP_H
#define GT_PTRMAP_H

#include <stddef.h>
#include <stdint.h>

/* 32 bytes: two slots per cache line. */
struct gt_live {
	uint64_t ptr; /* key; 0 marks an empty slot (NULL is never live) */
	uint64_t size;
	uint64_t t_ns;	 /* start of the allocating call */
	uint32_t stack;	 /* stack id (ids beyond 32 bits are clamped: see heap.c) */
	uint32_t dur_ns; /* duration of the allocating call, saturated */
};

struct gt_ptrmap {
	struct gt_live *slots;
	size_t mask; /* capacity - 1; capacity is a power of two */
	size_t count;
};

/*
 * get and claim are inline: the heap calls one or the other for every
 * call of a trace, and calling them (saving and restoring registers) took
 * a third of their instructions.
 */

static inline size_t gt_ptrmap_slot_of(const struct gt_ptrmap *m, uint64_t ptr)
{
	/* Fibonacci hashing: addresses are aligned, so mix the high bits in. */
	return (size_t)((ptr * 0x9E3779B97F4A7C15ull) >> 20) & m->mask;
}

/* The entry for ptr (non-zero), or NULL. Valid until the next put/del. */
static inline struct gt_live *gt_ptrmap_get(const struct gt_ptrmap *m, uint64_t ptr)
{
	if (!m->slots)
		return NULL;
	for (size_t i = gt_ptrmap_slot_of(m, ptr);; i = (i + 1) & m->mask) {
		struct gt_live *s = &m->slots[i];
		if (s->ptr == ptr)
			return s;
		if (!s->ptr)
			return NULL;
	}
}

/* Doubles the capacity (at first: makes the table). For gt_ptrmap_claim. */
void gt_ptrmap_grow(struct gt_ptrmap *m);

/*
 * The entry for ptr (non-zero): the one there is (*existed 1), or a new
 * one with ptr set and its other fields 0 (*existed 0). One probe where a
 * get and a put take two. Valid until the next claim, put or del.
 */
static inline struct gt_live *gt_ptrmap_claim(struct gt_ptrmap *m, uint64_t ptr, int *existed)
{
	/* Keep the load at most 1/2: probes stay short. */
	if (__builtin_expect(!m->slots || 2 * (m->count + 1) > m->mask + 1, 0))
		gt_ptrmap_grow(m);
	for (size_t i = gt_ptrmap_slot_of(m, ptr);; i = (i + 1) & m->mask) {
		struct gt_live *s = &m->slots[i];
		*existed = s->ptr == ptr;
		if (*existed)
			return s;
		if (!s->ptr) {
			/* A deleted entry's slot keeps its old fields (gt_ptrmap_del). */
			*s = (struct gt_live){.ptr = ptr};
			m->count++;
			return s;
		}
	}
}

/* Inserts or overwrites the entry e->ptr (non-zero). */
void gt_ptrmap_put(struct gt_ptrmap *m, const struct gt_live *e);

/* Removes the entry e points to (as returned by gt_ptrmap_get). */
void gt_ptrmap_del(struct gt_ptrmap *m, struct gt_live *e);

/* Iteration: slots 0..mask with ptr != 0. */
#define gt_ptrmap_capacity(m) ((m)->slots ? (m)->mask + 1 : 0)

void gt_ptrmap_release(struct gt_ptrmap *m);

#endif /* GT_PTRMAP_H */
