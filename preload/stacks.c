/*
 * The image's table of distinct call stacks: each stack is written once,
 * as a STACK record, and calls refer to it by id (as heaptrack does).
 *
 * Open addressing on a 64-bit hash of the addresses, compared in full on a
 * hash match; the addresses live in one growing array. All memory comes
 * from gt_pages: the table runs inside malloc hooks. Callers hold the
 * stream lock.
 */
#include "stacks.h"
#include "pages.h"

#include <string.h>

struct slot {
	uint64_t hash;
	uint32_t id; /* 0: empty */
	uint32_t depth;
	size_t ips_at; /* index of the first address in ips */
};

static struct slot *slots;
static size_t nslots; /* a power of two */
static uint32_t nstacks;
static uintptr_t *ips;
static size_t ips_used, ips_cap;

#define HASH_MUL 0xff51afd7ed558ccdu

/*
 * Four lanes, folded at the end: one chain through every frame waits for a
 * multiply per frame, and this runs on every allocation with a stack.
 */
static uint64_t hash_ips(const uintptr_t *p, int depth)
{
	uint64_t a = 0x9e3779b97f4a7c15u ^ (uint64_t)depth, b = 0xc2b2ae3d27d4eb4fu,
		 c = 0x165667b19e3779f9u, d = 0x27d4eb2f165667c5u;
	int i = 0;
	for (; i + 4 <= depth; i += 4) {
		a = (a ^ p[i]) * HASH_MUL;
		b = (b ^ p[i + 1]) * HASH_MUL;
		c = (c ^ p[i + 2]) * HASH_MUL;
		d = (d ^ p[i + 3]) * HASH_MUL;
	}
	for (; i < depth; i++)
		a = (a ^ p[i]) * HASH_MUL;
	uint64_t h = a;
	const uint64_t rest[3] = {b, c, d};
	for (int k = 0; k < 3; k++)
		h = (h ^ (h >> 33) ^ rest[k]) * HASH_MUL;
	return h ^ (h >> 33); /* the slot is picked by the low bits */
}

/* Doubles the table (or makes the first one); -1 if out of memory. */
static int grow_table(void)
{
	size_t n = nslots ? 2 * nslots : 4096;
	struct slot *t = gt_pages_populated(n * sizeof(*t));
	if (!t)
		return -1;
	for (size_t i = 0; i < nslots; i++) {
		if (!slots[i].id)
			continue;
		size_t j = slots[i].hash & (n - 1);
		while (t[j].id)
			j = (j + 1) & (n - 1);
		t[j] = slots[i];
	}
	gt_pages_free(slots, nslots * sizeof(*slots));
	slots = t;
	nslots = n;
	return 0;
}

/* Makes room for depth more addresses; -1 if out of memory. */
static int reserve_ips(int depth)
{
	if (ips_used + (size_t)depth <= ips_cap)
		return 0;
	size_t cap = ips_cap ? 2 * ips_cap : 65536;
	while (cap < ips_used + (size_t)depth)
		cap *= 2;
	uintptr_t *p = ips ? gt_pages_grow(ips, ips_cap * sizeof(*ips), cap * sizeof(*ips))
			   : gt_pages(cap * sizeof(*ips));
	if (!p)
		return -1;
	ips = p;
	ips_cap = cap;
	return 0;
}

uint32_t gt_stacks_intern(const uintptr_t *stack, int depth, int *is_new)
{
	*is_new = 0;
	if ((nstacks + 1) * 2 > nslots && grow_table())
		return 0;
	uint64_t h = hash_ips(stack, depth);
	size_t j = h & (nslots - 1);
	for (; slots[j].id; j = (j + 1) & (nslots - 1)) {
		struct slot *s = &slots[j];
		if (s->hash == h && s->depth == (uint32_t)depth &&
		    !memcmp(ips + s->ips_at, stack, (size_t)depth * sizeof(*stack)))
			return s->id;
	}
	if (reserve_ips(depth))
		return 0;
	memcpy(ips + ips_used, stack, (size_t)depth * sizeof(*stack));
	slots[j] = (struct slot){
		.hash = h, .id = ++nstacks, .depth = (uint32_t)depth, .ips_at = ips_used};
	ips_used += (size_t)depth;
	*is_new = 1;
	return slots[j].id;
}

void gt_stacks_reset(void)
{
	if (slots)
		memset(slots, 0, nslots * sizeof(*slots));
	nstacks = 0;
	ips_used = 0;
}
