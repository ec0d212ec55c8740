/*
 * Open-addressing live-allocation map. See ptrmap.h. Linear probing with
 * backward-shift deletion, so there are no tombstones and lookups of
 * absent keys stay short under a churn of inserts and deletes.
 */
#define _DEFAULT_SOURCE /* madvise, MAP_ANONYMOUS */
#include "ptrmap.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "die.h"

#define HUGE_PAGE (2u << 20)

/*
 * cap empty slots. A table of a few megabytes is touched at random, one
 * 4 KiB page fault per page as it fills and a TLB miss per lookup: on
 * transparent huge pages it takes a 512th of the faults. Where the system
 * gives none, madvise changes nothing. The report of a pack-objects trace
 * (a 16 MiB table): 0.39 s to 0.30 s (docs/capture-cost.md, section 0.15).
 * Such a table is mapped, not allocated: new pages read as zeros, where
 * clearing it with memset ran 1% of that report's instructions.
 */
static struct gt_live *empty_slots(size_t cap)
{
	size_t bytes = cap * sizeof(struct gt_live);
	if (bytes < HUGE_PAGE)
		return gt_xcalloc(cap, sizeof(struct gt_live));
	/* A huge page more than the table, trimmed to the table's bytes
	 * from a huge page's start. */
	uint8_t *p = mmap(NULL, bytes + HUGE_PAGE, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		gt_die("out of memory (%zu bytes for the live allocations)", bytes);
	size_t head = (HUGE_PAGE - (uintptr_t)p % HUGE_PAGE) % HUGE_PAGE;
	if (head)
		munmap(p, head);
	munmap(p + head + bytes, HUGE_PAGE - head);
#ifdef MADV_HUGEPAGE
	madvise(p + head, bytes, MADV_HUGEPAGE);
#endif
	return (struct gt_live *)(p + head);
}

static void release_slots(struct gt_live *slots, size_t cap)
{
	size_t bytes = cap * sizeof(struct gt_live);
	if (bytes < HUGE_PAGE)
		free(slots);
	else
		munmap(slots, bytes);
}

void gt_ptrmap_grow(struct gt_ptrmap *m)
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
	release_slots(old, old_cap);
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
		size_t home = gt_ptrmap_slot_of(m, m->slots[j].ptr);
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
	release_slots(m->slots, gt_ptrmap_capacity(m));
	memset(m, 0, sizeof(*m));
}
