/*
 * The writer's side of format.h's "Addresses": where in the block each
 * recent address was last written, so that an address seen again (a free
 * of a recent allocation, an allocation of a recently freed block) is
 * written as a reference of a byte or two instead of whole.
 *
 * One direct-mapped table keyed by the address: a slot holds an address
 * and its position in the image's count of coded addresses. An address
 * whose slot another one took since is written new: always correct, only
 * longer. Each lookup is a hash and one slot; the memory, GT_ADDR_SLOTS ×
 * 16 bytes, comes from gt_pages. A forked child inherits the table, and
 * its first block starts afresh as every block does.
 */
#include "addr_refs.h"
#include "pages.h"

#include "gittrace/format.h"

/* Four slots per address a reference can reach: few collisions. */
#define GT_ADDR_SLOT_BITS 14
#define GT_ADDR_SLOTS	  (1u << GT_ADDR_SLOT_BITS)
_Static_assert(GT_ADDR_SLOTS >= 4 * GT_ADDR_WINDOW, "a table too small for the window");

struct slot {
	uint64_t addr;
	uint64_t at; /* position of its last coding; valid if >= block_start */
};

static struct slot *slots;
static uint64_t coded;	     /* addresses coded in the image (not NULLs) */
static uint64_t block_start; /* coded at the block's start */
static uint64_t last_new;    /* the block's previous new address */

int gt_addr_refs_init(void)
{
	if (!slots)
		slots = gt_pages(GT_ADDR_SLOTS * sizeof(*slots));
	gt_addr_refs_block_start();
	return slots ? 0 : -1;
}

void gt_addr_refs_block_start(void)
{
	/*
	 * One position skipped: a forked child may have inherited a slot that
	 * a thread of its parent was writing at the fork, holding the
	 * position that was coded's then. Distances are relative: the reader
	 * never sees positions.
	 */
	block_start = ++coded;
	last_new = 0;
}

static struct slot *slot_of(uint64_t addr)
{
	return &slots[(addr * 0x9e3779b97f4a7c15u) >> (64 - GT_ADDR_SLOT_BITS)];
}

uint64_t gt_addr_refs_code(uint64_t addr, int64_t *delta)
{
	if (!addr)
		return GT_ADDR_NULL;
	struct slot *s = slot_of(addr);
	uint64_t code;
	if (s->addr == addr && s->at >= block_start && s->at < coded &&
	    coded - s->at <= GT_ADDR_WINDOW) {
		code = GT_ADDR_REF(coded - s->at);
	} else {
		*delta = (int64_t)(addr - last_new);
		last_new = addr;
		code = GT_ADDR_NEW;
	}
	s->addr = addr;
	s->at = coded++;
	return code;
}
