/*
 * Open-addressing live-allocation map. See ptrmap.h. Linear probing with
 * backward-shift deletion, so there are no tombstones and lookups of
 * absent keys stay short under a churn of inserts and deletes.
 */
#define _DEFAULT_SOURCE /* madvise */
#include "ptrmap.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "die.h"

static size_t slot_of(const struct gt_ptrmap *m, uint64_t ptr)
{
	/* Fibonacci hashing: addresses are aligned, so mix the high bits in. */
	return (size_t)((ptr * 0x9E3779B97F4A7C15ull) >> 20) & m->mask;
}

struct gt_live *gt_ptrmap_get(const struct gt_ptrmap *m, uint64_t ptr)
{
	if (!m->slots)
		return NULL;
	for (size_t i = slot_of(m, ptr);; i = (i + 1) & m->mask) {
		struct gt_live *s = &m->slots[i];
		if (s->ptr == ptr)
			return s;
		if (!s->ptr)
			return NULL;
	}
}

#define HUGE_PAGE (2u << 20)

/*
 * cap empty slots. A table of a few megabytes is touched at random, one
 * 4 KiB page fault per page as it fills and a TLB miss per lookup: on
 * transparent huge pages it takes a 512th of the faults. Where the system
 * gives none, madvise changes nothing. The report of a pack-objects trace
 * (a 16 MiB table): 0.39 s to 0.30 s (docs/capture-cost.md, section 0.15).
 */
static struct gt_live *empty_slots(size_t cap)
{
	size_t bytes = cap * sizeof(struct gt_live);
	if (bytes < HUGE_PAGE)
		return gt_xcalloc(cap, sizeof(struct gt_live));
	void *p = aligned_alloc(HUGE_PAGE, bytes); /* bytes: a power of two */
	if (!p)
		gt_die("out of memory (%zu bytes for the live allocations)", bytes);
#ifdef MADV_HUGEPAGE
	madvise(p, bytes, MADV_HUGEPAGE);
#endif
	return memset(p, 0, bytes);
}

static void grow(struct gt_ptrmap *m)
{
	size_t old_cap = gt_ptrmap_capacity(m);
	struct gt_live *old = m->slots;
	size_t cap = old_cap ? 2 * old_cap : 1024;
	m->slots = empty_slots(cap);
	m->mask = cap - 1;
	m->count = 0;
	for (size_t i = 0; i < old_cap; i++)
		if (old[i].ptr)
			gt_ptrmap_put(m, &old[i]);
	free(old);
}

struct gt_live *gt_ptrmap_claim(struct gt_ptrmap *m, uint64_t ptr, int *existed)
{
	/* Keep the load at most 1/2: probes stay short. */
	if (!m->slots || 2 * (m->count + 1) > m->mask + 1)
		grow(m);
	for (size_t i = slot_of(m, ptr);; i = (i + 1) & m->mask) {
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

void gt_ptrmap_put(struct gt_ptrmap *m, const struct gt_live *e)
{
	int existed;
	*gt_ptrmap_claim(m, e->ptr, &existed) = *e;
}

void gt_ptrmap_del(struct gt_ptrmap *m, struct gt_live *e)
{
	size_t i = (size_t)(e - m->slots);
	/* Backward shift: move later entries of the probe run into the hole
	 * unless their home slot lies (cyclically) after the hole. */
	for (size_t j = (i + 1) & m->mask; m->slots[j].ptr; j = (j + 1) & m->mask) {
		size_t home = slot_of(m, m->slots[j].ptr);
		if (((j - home) & m->mask) >= ((j - i) & m->mask)) {
			m->slots[i] = m->slots[j];
			i = j;
		}
	}
	m->slots[i].ptr = 0;
	m->count--;
}

void gt_ptrmap_release(struct gt_ptrmap *m)
{
	free(m->slots);
	memset(m, 0, sizeof(*m));
}
