/*
 * The writer's side of format.h's "Addresses": where in the block each
 * recent address was last written, and the block's lists of freed blocks
 * by size class, so that an address seen again (a free of a recent
 * allocation, an allocation of a block freed a moment ago) is written in
 * a byte or two instead of whole.
 *
 * One direct-mapped table keyed by the address: a slot holds an address,
 * its position in the image's count of coded addresses, its class and
 * whether it was last given back onto a list. An address whose slot
 * another one took since is written new: always correct, only longer.
 * Each lookup is a hash and one slot, and a block returned is looked for
 * below its list's last end only when its slot says the list may hold it
 * (a scan of at most GT_ADDR_FREED_DEPTH addresses). The memory,
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
	 * Position of its last coding (valid if >= block_start) << 16, ON_LIST
	 * if that coding put it on a list of freed blocks, and its class:
	 * positions count addresses, far from 2^48 in any run.
	 */
	uint64_t at_cls;
};
#define ON_LIST	   0x8000u
#define CLASS_MASK 0x1fffu
_Static_assert(GT_ADDR_CLASS_MAX_BYTES / 16 + 1 <= CLASS_MASK, "a class wider than its bits");

static struct slot *slots;
static struct gt_addr_freed *freed;
static uint64_t coded;	     /* addresses coded in the image (not NULLs) */
static uint64_t block_start; /* coded at the block's start */
static uint64_t last_new;    /* the block's previous new address */

int gt_addr_refs_init(void)
{
	if (!slots)
		slots = gt_pages_populated(GT_ADDR_SLOTS * sizeof(*slots));
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
	gt_addr_freed_reset(freed, GT_FORMAT_MAJOR);
}

static struct slot *slot_of(uint64_t addr)
{
	return &slots[(addr * 0x9e3779b97f4a7c15u) >> (64 - GT_ADDR_SLOT_BITS)];
}

void gt_addr_refs_warm(uint64_t addr)
{
	if (slots)
		__builtin_prefetch(slot_of(addr));
}

/*
 * Where in class cls's list addr is, from its last end: -1 if not within
 * the block's reach. Only a block the list may hold deeper than its last
 * end (deep: its slot says it was given back onto a list) is looked for
 * there.
 */
static int freed_position(uint64_t addr, unsigned cls, int deep)
{
	const struct gt_addr_freed_list *l = gt_addr_freed_list(freed, cls);
	unsigned n = l ? l->n : 0;
	if (n && gt_addr_freed_at(freed, l, 0) == addr)
		return 0;
	if (!deep)
		return -1;
	for (unsigned j = 1; j < n && j < freed->reach; j++)
		if (gt_addr_freed_at(freed, l, j) == addr)
			return (int)j;
	return -1;
}

uint64_t gt_addr_refs_code(uint64_t addr, enum gt_addr_role role, uint64_t bytes, int64_t *delta)
{
	if (!addr)
		return GT_ADDR_NULL;
	struct slot *s = slot_of(addr);
	uint64_t at = s->at_cls >> 16, flags = 0;
	int seen = s->addr == addr && at >= block_start && at < coded;
	unsigned referred_cls = 0, cls = gt_addr_class(bytes);
	int j = role == GT_ADDR_RETURNED ? freed_position(addr, cls, seen && (s->at_cls & ON_LIST))
					 : -1;
	uint64_t code;
	if (j >= 0) {
		gt_addr_freed_take(freed, gt_addr_freed_list(freed, cls), (unsigned)j);
		code = GT_ADDR_FROM_FREED + (unsigned)j;
	} else if (seen && coded - at <= GT_ADDR_WINDOW) {
		code = gt_addr_ref(freed, role, coded - at);
		referred_cls = (unsigned)(s->at_cls & CLASS_MASK);
		if (role == GT_ADDR_GIVEN_BACK && referred_cls) {
			gt_addr_freed_push(freed, referred_cls, addr);
			flags = ON_LIST;
		}
	} else {
		*delta = (int64_t)(addr - last_new);
		last_new = addr;
		code = GT_ADDR_NEW;
	}
	s->addr = addr;
	s->at_cls = coded++ << 16 | flags | gt_addr_class_of(role, bytes, referred_cls);
	return code;
}
