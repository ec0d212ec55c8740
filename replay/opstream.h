/*
 * One image's malloc-family calls made into ops (ops.h), call by call, in
 * recorded order: addresses to slots, recorded threads to replay threads,
 * and the waits that keep the cross-thread order a free or a reused slot
 * needs. Only bookkeeping over calls, so it is tested on made-up calls
 * (tests/replay/test_opstream.c); extract.c feeds it from a trace.
 *
 * Calls are appended after the real call returns (format.h), so a free in
 * one thread can come after another thread's allocation that reused its
 * address: a block whose address is handed out again while still live is
 * kept aside, and a free or realloc that started before the new block's
 * allocation ended claims the old one, as gittrace-report's heap does.
 */
#ifndef GT_REPLAY_OPSTREAM_H
#define GT_REPLAY_OPSTREAM_H

#include <stdint.h>
#include <stdio.h>

#include "ops.h"
#include "records.h"

struct gt_opstream_live;
struct gt_opstream_thread;

struct gt_opstream {
	struct gt_replay_header h; /* the ops written so far */
	/* Frees of blocks never seen allocated: left out. Reallocs of such
	 * blocks: replayed as realloc(NULL, n). */
	uint64_t untracked_frees, untracked_reallocs;

	/* The rest is the bookkeeping's own. */
	struct gt_opstream_live *live, *displaced; /* uthash by address */
	struct gt_opstream_thread *threads, *cur;  /* uthash by serial */
	uint32_t *free_slots;			   /* given back, reused last first */
	size_t nfree, free_cap;
	uint32_t *rel_thread; /* per slot: the op that gave it back */
	uint64_t *rel_index;
	size_t slots_cap;
	FILE *out;
	const char *out_name;
};

void gt_opstream_init(struct gt_opstream *o);

/*
 * The CALL c of a malloc-family function (c->fn < GT_REPLAY_FNS) by the
 * recorded thread serial, started at t ns: appends its op to out, or
 * nothing for a free that cannot be replayed (counted above). Dies with
 * out_name in the message when out cannot be written.
 */
void gt_opstream_call(struct gt_opstream *o, uint64_t serial, const struct gt_rec_call *c,
		      uint64_t t, FILE *out, const char *out_name);

void gt_opstream_release(struct gt_opstream *o);

#endif /* GT_REPLAY_OPSTREAM_H */
