/* Calls to ops (see opstream.h). */
#include "opstream.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

#include "die.h"

/* A live block: its address, and the op that last wrote its slot. */
struct gt_opstream_live {
	uint64_t ptr; /* key */
	uint64_t size;
	uint64_t end_ns; /* when the call that returned it ended */
	uint32_t slot, thread;
	uint64_t index; /* of that op among its thread's ops */
	UT_hash_handle hh;
};

/* A recorded thread and its replay thread (NONE until its first op). */
struct gt_opstream_thread {
	uint64_t serial; /* key */
	uint32_t index;
	uint64_t nops;
	UT_hash_handle hh;
};

void gt_opstream_init(struct gt_opstream *o)
{
	memset(o, 0, sizeof(*o));
	o->h.magic = GT_REPLAY_MAGIC;
}

static struct gt_opstream_thread *thread_for(struct gt_opstream *o, uint64_t serial)
{
	struct gt_opstream_thread *t;
	HASH_FIND(hh, o->threads, &serial, sizeof(serial), t);
	if (!t) {
		t = gt_xcalloc(1, sizeof(*t));
		t->serial = serial;
		t->index = GT_REPLAY_NONE;
		HASH_ADD(hh, o->threads, serial, sizeof(t->serial), t);
	}
	return t;
}

/*
 * The image's op stream, open for appending: created with a placeholder
 * header on its first call, reopened for calls that follow its END (exit
 * handlers). Streams are closed at END so that a trace of thousands of
 * processes does not hold thousands of files open.
 */
/* Waits for the op (thread, index) if another thread ran it. */
static void after(struct gt_replay_op *op, uint32_t thread, uint64_t index)
{
	if (thread != op->thread) {
		op->wait_thread = thread;
		op->wait_index = index;
	}
}

/* A slot for a new block: one given back (after the op that gave it back), or a new one. */
static uint32_t take_slot(struct gt_opstream *o, struct gt_replay_op *op)
{
	if (o->nfree) {
		uint32_t slot = o->free_slots[--o->nfree];
		after(op, o->rel_thread[slot], o->rel_index[slot]);
		return slot;
	}
	if (o->h.slots >= GT_REPLAY_NONE - 1)
		gt_die("an image holds more blocks at once than the replayer can");
	if (o->h.slots == o->slots_cap) {
		o->slots_cap = o->slots_cap ? 2 * o->slots_cap : 1024;
		o->rel_thread = gt_xrealloc(o->rel_thread, o->slots_cap * sizeof(*o->rel_thread));
		o->rel_index = gt_xrealloc(o->rel_index, o->slots_cap * sizeof(*o->rel_index));
	}
	return (uint32_t)o->h.slots++;
}

static void give_back(struct gt_opstream *o, uint32_t slot, uint32_t thread, uint64_t index)
{
	if (o->nfree == o->free_cap) {
		o->free_cap = o->free_cap ? 2 * o->free_cap : 1024;
		o->free_slots = gt_xrealloc(o->free_slots, o->free_cap * sizeof(*o->free_slots));
	}
	o->free_slots[o->nfree++] = slot;
	o->rel_thread[slot] = thread;
	o->rel_index[slot] = index;
}

/* Appends op to the stream; returns its index among its thread's ops. */
static uint64_t emit(struct gt_opstream *o, const struct gt_replay_op *op)
{
	uint8_t buf[GT_REPLAY_OP_MAX];
	size_t n = (size_t)(gt_replay_op_encode(buf, op) - buf);
	if (fwrite(buf, 1, n, o->out) != n)
		gt_die("cannot write '%s': %s", o->out_name, strerror(errno));
	o->h.ops++;
	o->h.calls[op->fn]++;
	return o->cur->nops++;
}

/* The block at ptr a free or realloc starting at t refers to, or NULL (format.h's race). */
static struct gt_opstream_live *find_freed(struct gt_opstream *o, uint64_t ptr, uint64_t t)
{
	struct gt_opstream_live *cur, *old;
	HASH_FIND(hh, o->live, &ptr, sizeof(ptr), cur);
	HASH_FIND(hh, o->displaced, &ptr, sizeof(ptr), old);
	if (old && (!cur || t < cur->end_ns)) {
		HASH_DEL(o->displaced, old);
		return old;
	}
	if (cur)
		HASH_DEL(o->live, cur);
	return cur;
}

/* Records block e (out of any table) as live at ptr. */
static void add_live(struct gt_opstream *o, struct gt_opstream_live *e, uint64_t ptr)
{
	struct gt_opstream_live *was;
	HASH_FIND(hh, o->live, &ptr, sizeof(ptr), was);
	if (was) {
		struct gt_opstream_live *older;
		HASH_DEL(o->live, was);
		HASH_FIND(hh, o->displaced, &ptr, sizeof(ptr), older);
		if (older) { /* two races on one address: the older block is lost to the replay */
			HASH_DEL(o->displaced, older);
			free(older);
		}
		HASH_ADD(hh, o->displaced, ptr, sizeof(was->ptr), was);
	}
	e->ptr = ptr;
	HASH_ADD(hh, o->live, ptr, sizeof(e->ptr), e);
}

static uint64_t mul_sat(uint64_t a, uint64_t b)
{
	return a && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

/* An allocation that returned result (0: failed) and left a block of size bytes. */
static void allocation(struct gt_opstream *o, struct gt_replay_op *op, uint64_t result,
		       uint64_t size, uint64_t end_ns)
{
	struct gt_opstream_live *e = NULL;
	if (result) {
		e = gt_xcalloc(1, sizeof(*e));
		op->slot = e->slot = take_slot(o, op);
		e->size = size;
		e->end_ns = end_ns;
		e->thread = op->thread;
	}
	uint64_t index = emit(o, op);
	if (e) {
		e->index = index;
		add_live(o, e, result);
	}
}

static void resize(struct gt_opstream *o, struct gt_replay_op *op, const struct gt_rec_call *c,
		   uint64_t t, uint64_t size)
{
	struct gt_opstream_live *e = c->ptr ? find_freed(o, c->ptr, t) : NULL;
	if (!e) {
		if (c->ptr)
			o->untracked_reallocs++; /* replayed as realloc(NULL, n) */
		allocation(o, op, c->result, size, t + c->dur_ns);
		return;
	}
	op->ref = e->slot;
	op->old = e->size;
	after(op, e->thread, e->index);
	int freed = !c->result && size == 0;
	op->slot = freed ? GT_REPLAY_NONE : e->slot;
	uint64_t index = emit(o, op);
	if (freed) {
		give_back(o, e->slot, op->thread, index);
		free(e);
		return;
	}
	e->thread = op->thread;
	e->index = index;
	if (c->result) { /* a failed resize leaves the block where it was */
		e->size = size;
		e->end_ns = t + c->dur_ns;
	}
	add_live(o, e, c->result ? c->result : c->ptr);
}

static void release(struct gt_opstream *o, struct gt_replay_op *op, const struct gt_rec_call *c,
		    uint64_t t)
{
	struct gt_opstream_live *e = c->ptr ? find_freed(o, c->ptr, t) : NULL;
	if (c->ptr && !e) {
		o->untracked_frees++;
		return;
	}
	if (e) {
		op->ref = e->slot;
		after(op, e->thread, e->index);
	}
	uint64_t index = emit(o, op);
	if (e) {
		give_back(o, e->slot, op->thread, index);
		free(e);
	}
}

void gt_opstream_call(struct gt_opstream *o, uint64_t serial, const struct gt_rec_call *c,
		      uint64_t t, FILE *out, const char *out_name)
{
	o->out = out;
	o->out_name = out_name;
	o->cur = thread_for(o, serial);
	if (o->cur->index == GT_REPLAY_NONE)
		o->cur->index = o->h.threads++;
	struct gt_replay_op op = {.fn = c->fn,
				  .thread = o->cur->index,
				  .slot = GT_REPLAY_NONE,
				  .ref = GT_REPLAY_NONE,
				  .wait_thread = GT_REPLAY_NONE,
				  .size = c->size};
	uint64_t end = t + c->dur_ns;
	switch ((enum gt_fn)c->fn) {
	case GT_FN_MALLOC:
	case GT_FN_VALLOC:
	case GT_FN_PVALLOC:
		allocation(o, &op, c->result, c->size, end);
		break;
	case GT_FN_CALLOC:
		op.arg = c->nmemb;
		allocation(o, &op, c->result, mul_sat(c->nmemb, c->size), end);
		break;
	case GT_FN_ALIGNED_ALLOC:
	case GT_FN_MEMALIGN:
		op.arg = c->align;
		allocation(o, &op, c->result, c->size, end);
		break;
	case GT_FN_POSIX_MEMALIGN:
		op.arg = c->align;
		allocation(o, &op, c->ret ? 0 : c->result, c->size, end);
		break;
	case GT_FN_REALLOC:
		resize(o, &op, c, t, c->size);
		break;
	case GT_FN_REALLOCARRAY:
		op.arg = c->nmemb;
		resize(o, &op, c, t, mul_sat(c->nmemb, c->size));
		break;
	case GT_FN_FREE:
		release(o, &op, c, t);
		break;
	default:
		BUG("not a malloc-family call");
	}
}

static void free_live(struct gt_opstream_live **table)
{
	struct gt_opstream_live *e, *tmp;
	HASH_ITER(hh, *table, e, tmp)
	{
		HASH_DEL(*table, e);
		free(e);
	}
}

void gt_opstream_release(struct gt_opstream *o)
{
	free_live(&o->live);
	free_live(&o->displaced);
	struct gt_opstream_thread *t, *tmp;
	HASH_ITER(hh, o->threads, t, tmp)
	{
		HASH_DEL(o->threads, t);
		free(t);
	}
	free(o->free_slots);
	free(o->rel_thread);
	free(o->rel_index);
	memset(o, 0, sizeof(*o));
}
