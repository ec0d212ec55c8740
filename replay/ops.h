/*
 * The op stream: one process image's malloc-family calls as the replayer
 * runs them, the only thing gittrace-replay (the extractor) and
 * gittrace-replay-run (the replayer) share. A temporary file written and
 * read by the same build on the same machine, so the header is raw native
 * struct; ops are varints (format.h's ULEB128), about a dozen bytes each.
 *
 * Addresses are gone: every block lives in a *slot*, an index into the
 * replayer's table of pointers. A slot is taken by the call that allocates
 * its block and given back by the call that frees it; slots are reused
 * last-freed first, so the table is as large as the most blocks live at
 * once. A realloc keeps its block's slot.
 *
 * Ops appear in recorded order (the image's calls, all threads
 * interleaved). Each names its thread (0..threads-1, in order of first
 * call) and, when it must not run before another thread's op, that op as
 * (thread, index among that thread's ops): the allocation a free or
 * realloc refers to, or the free that gave back the slot an allocation
 * takes. Within a thread, ops run in order anyway.
 */
#ifndef GT_REPLAY_OPS_H
#define GT_REPLAY_OPS_H

#include <stdint.h>

#include "gittrace/format.h"

#define GT_REPLAY_MAGIC 0x50525447u /* "GTRP" */
/* The malloc family is enum gt_fn's values 0..GT_FN_PVALLOC. */
#define GT_REPLAY_FNS (GT_FN_PVALLOC + 1)
/* A slot or thread field that names none. */
#define GT_REPLAY_NONE UINT32_MAX

struct gt_replay_header {
	uint32_t magic;
	uint32_t threads;
	uint64_t slots;
	uint64_t ops;
	uint64_t calls[GT_REPLAY_FNS]; /* ops per function */
};

/*
 * One call. fn is an enum gt_fn of the malloc family. slot: the block the
 * call leaves (an allocation's, a realloc's; NONE for free, a failed call,
 * realloc(p, 0) that freed p). ref: the block it frees or resizes (free,
 * realloc; NONE for free(NULL), realloc(NULL, n)). size: the size argument;
 * arg: calloc's and reallocarray's nmemb, the alignment of the aligned
 * family; old: the size of the block a realloc resizes (the replayer
 * touches only what grew).
 */
struct gt_replay_op {
	uint64_t size, arg, old;
	uint64_t wait_index;
	uint32_t slot, ref, thread, wait_thread; /* wait_thread NONE: no wait */
	uint8_t fn;
};

/* Varints store NONE as 0 and n as n + 1. */
static inline uint64_t gt_replay_opt(uint32_t v)
{
	return v == GT_REPLAY_NONE ? 0 : (uint64_t)v + 1;
}

static inline uint32_t gt_replay_unopt(uint64_t v)
{
	return v == 0 ? GT_REPLAY_NONE : (uint32_t)(v - 1);
}

/* The longest encoded op. */
#define GT_REPLAY_OP_MAX (1 + 8 * GT_UV_MAX)

/* Writes op at p; returns the byte after it. p needs GT_REPLAY_OP_MAX. */
static inline uint8_t *gt_replay_op_encode(uint8_t *p, const struct gt_replay_op *op)
{
	*p++ = op->fn;
	p = gt_put_uv(p, op->thread);
	p = gt_put_uv(p, gt_replay_opt(op->slot));
	p = gt_put_uv(p, gt_replay_opt(op->ref));
	p = gt_put_uv(p, op->size);
	p = gt_put_uv(p, op->arg);
	p = gt_put_uv(p, op->old);
	p = gt_put_uv(p, gt_replay_opt(op->wait_thread));
	return gt_put_uv(p, op->wait_index);
}

/* Reads a ULEB128 at *p (before end); 0 when it runs past end. */
static inline int gt_replay_get_uv(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	*v = 0;
	for (unsigned shift = 0; *p < end && shift < 64; shift += 7) {
		uint8_t b = *(*p)++;
		*v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return 1;
	}
	return 0;
}

/* Reads the op at *p (before end) into op; returns 0 on a cut or bad op. */
static inline int gt_replay_op_decode(const uint8_t **p, const uint8_t *end,
				      struct gt_replay_op *op)
{
	uint64_t thread, slot, ref, wait_thread;
	if (*p >= end || **p >= GT_REPLAY_FNS)
		return 0;
	op->fn = *(*p)++;
	if (!gt_replay_get_uv(p, end, &thread) || !gt_replay_get_uv(p, end, &slot) ||
	    !gt_replay_get_uv(p, end, &ref) || !gt_replay_get_uv(p, end, &op->size) ||
	    !gt_replay_get_uv(p, end, &op->arg) || !gt_replay_get_uv(p, end, &op->old) ||
	    !gt_replay_get_uv(p, end, &wait_thread) || !gt_replay_get_uv(p, end, &op->wait_index))
		return 0;
	op->thread = (uint32_t)thread;
	op->slot = gt_replay_unopt(slot);
	op->ref = gt_replay_unopt(ref);
	op->wait_thread = gt_replay_unopt(wait_thread);
	return 1;
}

#endif /* GT_REPLAY_OPS_H */
