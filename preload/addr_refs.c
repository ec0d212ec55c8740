/*
 * The writer's side of format.h's "Addresses": where in the block each
 * recent address was last written, and the block's lists of freed blocks
 * by size class, so that an address seen again (a free of a recent
 * allocation, an allocation of a block freed a moment ago) is written in
 * a byte or two instead of whole.
 *
 * One direct-mapped table keyed by the address: a slot holds an address,
 * its position in the image's count of coded addresses and its class. An
 * address whose slot another one took since is written new: always
 * correct, only longer. Each lookup is a hash and one slot; the memory,
 * GT_ADDR_SLOTS × 16 bytes and the lists, comes from gt_pages. A forked
 * child inherits both, and its first block starts afresh as every block
 * does.
 */
#include "addr_refs.h"
#include "pages.h"

/* Four slots per address a reference can reach: few collisions. */
#define GT_ADDR_SLOT_BITS 14
#define GT_ADDR_SLOTS	  (1u << GT_ADDR_SLOT_BITS)
_Static_assert(GT_ADDR_SLOTS >= 4 * GT_ADDR_WINDOW, "a table too small for the window");

struct slot {
	uint64_t addr;
	/*
	 * Position of its last coding (valid if >= block_start) << 16, and its
	 * class: positions count addresses, far from 2^48 in any run.
	 */
	uint64_t at_cls;
};

static struct slot *slots;
static struct gt_addr_freed *freed;
static uint64_t coded;	     /* addresses coded in the image (not NULLs) */
static uint64_t block_start; /* coded at the block's start */
static uint64_t last_new;    /* the block's previous new address */

int gt_addr_refs_init(void)
{
	if (!slots)
		slots = gt_pages(GT_ADDR_SLOTS * sizeof(*slots));
	if (!freed)
		freed = gt_pages(sizeof(*freed));
	if (!slots || !freed) {
		gt_pages_free(slots, GT_ADDR_SLOTS * sizeof(*slots));
		gt_pages_free(freed, sizeof(*freed));
		slots = NULL;
		freed = NULL;
		return -1;
	}
	gt_addr_refs_block_start();
	return 0;
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
	gt_addr_freed_reset(freed);
}

static struct slot *slot_of(uint64_t addr)
{
	return &slots[(addr * 0x9e3779b97f4a7c15u) >> (64 - GT_ADDR_SLOT_BITS)];
}

uint64_t gt_addr_refs_code(uint64_t addr, enum gt_addr_role role, uint64_t bytes, int64_t *delta)
{
	if (!addr)
		return GT_ADDR_NULL;
	struct slot *s = slot_of(addr);
	uint64_t at = s->at_cls >> 16;
	unsigned referred_cls = 0, cls = gt_addr_class(bytes);
	uint64_t code;
	if (role == GT_ADDR_RETURNED && gt_addr_freed_last(freed, cls) == addr) {
		gt_addr_freed_take(freed, cls);
		code = GT_ADDR_FROM_FREED;
	} else if (s->addr == addr && at >= block_start && at < coded &&
		   coded - at <= GT_ADDR_WINDOW) {
		code = GT_ADDR_REF(coded - at);
		referred_cls = (unsigned)(s->at_cls & 0xffff);
		if (role == GT_ADDR_GIVEN_BACK && referred_cls)
			gt_addr_freed_push(freed, referred_cls, addr);
	} else {
		*delta = (int64_t)(addr - last_new);
		last_new = addr;
		code = GT_ADDR_NEW;
	}
	s->addr = addr;
	s->at_cls = coded++ << 16 | gt_addr_class_of(role, bytes, referred_cls);
	return code;
}
