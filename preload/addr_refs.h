/* The addresses the block being filled has had (addr_refs.c). */
#ifndef GT_ADDR_REFS_H
#define GT_ADDR_REFS_H

#include "gittrace/format.h"

#include <stdint.h>

/* Sets up the table (at an image's start); -1 if out of memory. */
int gt_addr_refs_init(void);

/* Forgets the block's addresses: a new block starts (format.h, "Addresses"). */
void gt_addr_refs_block_start(void);

/*
 * The code of addr in format.h's "Addresses", as an argument of the given
 * role (GT_ADDR_PLAIN outside heap calls) in a call of bytes; when it is
 * GT_ADDR_NEW, *delta is its difference from the block's previous new
 * address (which gt_put_new_addr writes to GT_COL_NEW_ADDR). Called for every
 * P argument of the block in order, with the stream lock held.
 */
uint64_t gt_addr_refs_code(uint64_t addr, enum gt_addr_role role, uint64_t bytes, int64_t *delta);

/*
 * Starts loading addr's slot into the cache, without the lock: the hook of
 * a call that gives a block back calls it before the real call, whose time
 * covers the cache miss that gt_addr_refs_code would otherwise wait for
 * (the table's 256 KiB outgrow the first-level cache, and share the
 * second with the program's own data).
 */
void gt_addr_refs_warm(uint64_t addr);

#endif /* GT_ADDR_REFS_H */
