/* Trace to op streams (see extract.h and ops.h). */
#define _GNU_SOURCE
#include "extract.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <uthash.h>

#include "die.h"
#include "reader.h"
#include "records.h"

/* A live block: its address, and the op that last wrote its slot. */
struct live {
	uint64_t ptr; /* key */
	uint64_t size;
	uint64_t end_ns; /* when the call that returned it ended */
	uint32_t slot, thread;
	uint64_t index; /* of that op among its thread's ops */
	UT_hash_handle hh;
};

/* A recorded thread: its replay thread (NONE until its first op) and CPU. */
struct thread {
	uint64_t serial; /* key */
	uint32_t index;
	uint64_t nops;
	uint64_t cpu_ns; /* its last USAGE reading, user + system */
	UT_hash_handle hh;
};

/* Everything extraction keeps per image besides what extract.h reports. */
struct state {
	uint64_t id; /* key */
	size_t pos;  /* in out->v */
	struct live *live;
	/* Blocks whose address a racing thread's allocation handed out again
	 * before their free was appended (format.h): the free claims them. */
	struct live *displaced;
	struct thread *threads, *cur;
	uint32_t *free_slots; /* given back, reused last first */
	size_t nfree, free_cap;
	uint32_t *rel_thread; /* per slot: the op that gave it back */
	uint64_t *rel_index;
	size_t slots_cap;
	FILE *out;
	uint64_t now_ns;
	uint64_t inside_ns; /* summed durations of all its calls */
	int block_start;
	uint32_t next_seq;
	int has_end;
	struct gt_rec_end end;
	UT_hash_handle hh;
};

struct extraction {
	const char *dir;
	struct gt_replay_images *out;
	struct state *states;
};

static struct gt_replay_image *image_of(struct extraction *x, struct state *s)
{
	return &x->out->v[s->pos];
}

static struct state *state_for(struct extraction *x, const struct gt_block *b)
{
	struct state *s;
	HASH_FIND(hh, x->states, &b->h.image_id, sizeof(b->h.image_id), s);
	if (s)
		return s;
	s = gt_xcalloc(1, sizeof(*s));
	s->id = b->h.image_id;
	s->pos = x->out->n++;
	x->out->v = gt_xrealloc(x->out->v, x->out->n * sizeof(*x->out->v));
	memset(&x->out->v[s->pos], 0, sizeof(x->out->v[s->pos]));
	image_of(x, s)->id = b->h.image_id;
	image_of(x, s)->pid = b->h.pid;
	HASH_ADD(hh, x->states, id, sizeof(s->id), s);
	return s;
}

static struct thread *thread_for(struct state *s, uint64_t serial)
{
	struct thread *t;
	HASH_FIND(hh, s->threads, &serial, sizeof(serial), t);
	if (!t) {
		t = gt_xcalloc(1, sizeof(*t));
		t->serial = serial;
		t->index = GT_REPLAY_NONE;
		HASH_ADD(hh, s->threads, serial, sizeof(t->serial), t);
	}
	return t;
}

/*
 * The image's op stream, open for appending: created with a placeholder
 * header on its first call, reopened for calls that follow its END (exit
 * handlers). Streams are closed at END so that a trace of thousands of
 * processes does not hold thousands of files open.
 */
static void open_ops(struct extraction *x, struct state *s)
{
	struct gt_replay_image *img = image_of(x, s);
	if (img->ops_path) {
		s->out = fopen(img->ops_path, "abe");
		if (!s->out)
			gt_die("cannot open '%s': %s", img->ops_path, strerror(errno));
		return;
	}
	if (asprintf(&img->ops_path, "%s/ops-%zu", x->dir, s->pos) < 0)
		gt_die("out of memory");
	s->out = fopen(img->ops_path, "wbe");
	if (!s->out)
		gt_die("cannot create '%s': %s", img->ops_path, strerror(errno));
	img->h.magic = GT_REPLAY_MAGIC;
	if (fwrite(&img->h, sizeof(img->h), 1, s->out) != 1)
		gt_die("cannot write '%s': %s", img->ops_path, strerror(errno));
}

static void close_ops(struct gt_replay_image *img, struct state *s)
{
	if (s->out && fclose(s->out))
		gt_die("cannot write '%s': %s", img->ops_path, strerror(errno));
	s->out = NULL;
}

/* Waits for the op (thread, index) if another thread ran it. */
static void after(struct gt_replay_op *op, uint32_t thread, uint64_t index)
{
	if (thread != op->thread) {
		op->wait_thread = thread;
		op->wait_index = index;
	}
}

/* A slot for a new block: one given back (after the op that gave it back), or a new one. */
static uint32_t take_slot(struct gt_replay_image *img, struct state *s, struct gt_replay_op *op)
{
	if (s->nfree) {
		uint32_t slot = s->free_slots[--s->nfree];
		after(op, s->rel_thread[slot], s->rel_index[slot]);
		return slot;
	}
	if (img->h.slots >= GT_REPLAY_NONE - 1)
		gt_die("image %u holds more blocks at once than the replayer can", img->pid);
	if (img->h.slots == s->slots_cap) {
		s->slots_cap = s->slots_cap ? 2 * s->slots_cap : 1024;
		s->rel_thread = gt_xrealloc(s->rel_thread, s->slots_cap * sizeof(*s->rel_thread));
		s->rel_index = gt_xrealloc(s->rel_index, s->slots_cap * sizeof(*s->rel_index));
	}
	return (uint32_t)img->h.slots++;
}

static void give_back(struct state *s, uint32_t slot, uint32_t thread, uint64_t index)
{
	if (s->nfree == s->free_cap) {
		s->free_cap = s->free_cap ? 2 * s->free_cap : 1024;
		s->free_slots = gt_xrealloc(s->free_slots, s->free_cap * sizeof(*s->free_slots));
	}
	s->free_slots[s->nfree++] = slot;
	s->rel_thread[slot] = thread;
	s->rel_index[slot] = index;
}

/* Appends op to the image's stream; returns its index among its thread's ops. */
static uint64_t emit(struct gt_replay_image *img, struct state *s, const struct gt_replay_op *op)
{
	uint8_t buf[GT_REPLAY_OP_MAX];
	size_t n = (size_t)(gt_replay_op_encode(buf, op) - buf);
	if (fwrite(buf, 1, n, s->out) != n)
		gt_die("cannot write '%s': %s", img->ops_path, strerror(errno));
	img->h.ops++;
	img->h.calls[op->fn]++;
	return s->cur->nops++;
}

/* The block at ptr a free or realloc starting at t refers to, or NULL (format.h's race). */
static struct live *find_freed(struct state *s, uint64_t ptr, uint64_t t)
{
	struct live *cur, *old;
	HASH_FIND(hh, s->live, &ptr, sizeof(ptr), cur);
	HASH_FIND(hh, s->displaced, &ptr, sizeof(ptr), old);
	if (old && (!cur || t < cur->end_ns)) {
		HASH_DEL(s->displaced, old);
		return old;
	}
	if (cur)
		HASH_DEL(s->live, cur);
	return cur;
}

/* Records block e (out of any table) as live at ptr. */
static void add_live(struct state *s, struct live *e, uint64_t ptr)
{
	struct live *was;
	HASH_FIND(hh, s->live, &ptr, sizeof(ptr), was);
	if (was) {
		struct live *older;
		HASH_DEL(s->live, was);
		HASH_FIND(hh, s->displaced, &ptr, sizeof(ptr), older);
		if (older) { /* two races on one address: the older block is lost to the replay */
			HASH_DEL(s->displaced, older);
			free(older);
		}
		HASH_ADD(hh, s->displaced, ptr, sizeof(was->ptr), was);
	}
	e->ptr = ptr;
	HASH_ADD(hh, s->live, ptr, sizeof(e->ptr), e);
}

static uint64_t mul_sat(uint64_t a, uint64_t b)
{
	return a && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

/* An allocation that returned result (0: failed) and left a block of size bytes. */
static void allocation(struct gt_replay_image *img, struct state *s, struct gt_replay_op *op,
		       uint64_t result, uint64_t size, uint64_t end_ns)
{
	struct live *e = NULL;
	if (result) {
		e = gt_xcalloc(1, sizeof(*e));
		op->slot = e->slot = take_slot(img, s, op);
		e->size = size;
		e->end_ns = end_ns;
		e->thread = op->thread;
	}
	uint64_t index = emit(img, s, op);
	if (e) {
		e->index = index;
		add_live(s, e, result);
	}
}

static void resize(struct gt_replay_image *img, struct state *s, struct gt_replay_op *op,
		   const struct gt_rec_call *c, uint64_t t, uint64_t size)
{
	struct live *e = c->ptr ? find_freed(s, c->ptr, t) : NULL;
	if (!e) {
		if (c->ptr)
			img->untracked_reallocs++; /* replayed as realloc(NULL, n) */
		allocation(img, s, op, c->result, size, t + c->dur_ns);
		return;
	}
	op->ref = e->slot;
	op->old = e->size;
	after(op, e->thread, e->index);
	int freed = !c->result && size == 0;
	op->slot = freed ? GT_REPLAY_NONE : e->slot;
	uint64_t index = emit(img, s, op);
	if (freed) {
		give_back(s, e->slot, op->thread, index);
		free(e);
		return;
	}
	e->thread = op->thread;
	e->index = index;
	if (c->result) { /* a failed resize leaves the block where it was */
		e->size = size;
		e->end_ns = t + c->dur_ns;
	}
	add_live(s, e, c->result ? c->result : c->ptr);
}

static void release(struct gt_replay_image *img, struct state *s, struct gt_replay_op *op,
		    const struct gt_rec_call *c, uint64_t t)
{
	struct live *e = c->ptr ? find_freed(s, c->ptr, t) : NULL;
	if (c->ptr && !e) {
		img->untracked_frees++;
		return;
	}
	if (e) {
		op->ref = e->slot;
		after(op, e->thread, e->index);
	}
	uint64_t index = emit(img, s, op);
	if (e) {
		give_back(s, e->slot, op->thread, index);
		free(e);
	}
}

static void call(struct extraction *x, struct state *s, const struct gt_block *b,
		 const struct gt_rec_call *c)
{
	uint64_t t = (s->block_start ? b->h.base_ns : s->now_ns) + (uint64_t)c->dts;
	s->block_start = 0;
	s->now_ns = t;
	s->inside_ns += c->dur_ns;
	if (c->fn >= GT_REPLAY_FNS)
		return; /* the maps are git's own, not the allocator's */
	struct gt_replay_image *img = image_of(x, s);
	img->recorded_calls++;
	if (!s->out)
		open_ops(x, s);
	if (!s->cur)
		s->cur = thread_for(s, 1);
	if (s->cur->index == GT_REPLAY_NONE)
		s->cur->index = img->h.threads++;
	struct gt_replay_op op = {.fn = c->fn,
				  .thread = s->cur->index,
				  .slot = GT_REPLAY_NONE,
				  .ref = GT_REPLAY_NONE,
				  .wait_thread = GT_REPLAY_NONE,
				  .size = c->size};
	uint64_t end = t + c->dur_ns;
	switch ((enum gt_fn)c->fn) {
	case GT_FN_MALLOC:
	case GT_FN_VALLOC:
	case GT_FN_PVALLOC:
		allocation(img, s, &op, c->result, c->size, end);
		break;
	case GT_FN_CALLOC:
		op.arg = c->nmemb;
		allocation(img, s, &op, c->result, mul_sat(c->nmemb, c->size), end);
		break;
	case GT_FN_ALIGNED_ALLOC:
	case GT_FN_MEMALIGN:
		op.arg = c->align;
		allocation(img, s, &op, c->result, c->size, end);
		break;
	case GT_FN_POSIX_MEMALIGN:
		op.arg = c->align;
		allocation(img, s, &op, c->ret ? 0 : c->result, c->size, end);
		break;
	case GT_FN_REALLOC:
		resize(img, s, &op, c, t, c->size);
		break;
	case GT_FN_REALLOCARRAY:
		op.arg = c->nmemb;
		resize(img, s, &op, c, t, mul_sat(c->nmemb, c->size));
		break;
	case GT_FN_FREE:
		release(img, s, &op, c, t);
		break;
	default:
		break;
	}
}

static void image_info(struct gt_replay_image *img, const struct gt_rec_image *r)
{
	for (size_t i = 0; i < img->argc; i++)
		free(img->argv[i]);
	free(img->argv);
	img->argc = r->argc;
	img->argv = gt_xcalloc(r->argc, sizeof(*img->argv));
	for (size_t i = 0; i < r->argc; i++)
		img->argv[i] = gt_xstrndup(r->argv[i].p, r->argv[i].len);
}

static void apply(struct extraction *x, struct state *s, const struct gt_block *b,
		  const struct gt_record *r)
{
	if (!r->known) {
		if (r->raw.tag == GT_REC_CALL)
			image_of(x, s)->unknown_calls++;
		return;
	}
	switch ((enum gt_record_tag)r->raw.tag) {
	case GT_REC_IMAGE:
		image_info(image_of(x, s), &r->u.image);
		break;
	case GT_REC_THREAD:
		s->cur = thread_for(s, r->u.thread.serial);
		break;
	case GT_REC_CALL:
		call(x, s, b, &r->u.call);
		break;
	case GT_REC_END:
		s->end = r->u.end;
		s->has_end = 1;
		close_ops(image_of(x, s), s);
		break;
	case GT_REC_EXEC_FAILED:
		s->has_end = 0;
		break;
	case GT_REC_USAGE:
		if (!s->cur)
			s->cur = thread_for(s, 1);
		s->cur->cpu_ns = r->u.usage.user_ns + r->u.usage.system_ns;
		break;
	default:
		break;
	}
}

static void feed(struct extraction *x, const struct gt_block *b)
{
	struct state *s = state_for(x, b);
	if (b->h.seq != s->next_seq)
		image_of(x, s)->missing_blocks = 1;
	s->next_seq = b->h.seq + 1;
	s->block_start = 1;
	struct gt_rec_iter it;
	struct gt_rec raw;
	gt_rec_iter_init(&it, b);
	while (gt_rec_next(&it, &raw)) {
		struct gt_record r;
		memset(&r, 0, sizeof(r));
		gt_decode_record(b, &raw, &r);
		apply(x, s, b, &r);
		gt_record_release(&r);
	}
}

/*
 * The program's CPU time: END's with the tracer's estimated share removed,
 * but never less than the time inside the calls (a short run's tracer
 * estimate can exceed its CPU time; gittrace-report does the same); else
 * its threads' last USAGE readings.
 */
static void cpu_time(struct gt_replay_image *img, const struct state *s)
{
	if (s->has_end) {
		uint64_t cpu = s->end.user_ns + s->end.system_ns;
		cpu = cpu > s->end.tracer_ns ? cpu - s->end.tracer_ns : 0;
		cpu = cpu > s->inside_ns ? cpu : s->inside_ns;
		img->cpu_seconds = (double)cpu / 1e9;
		img->cpu_source = GT_REPLAY_CPU_END;
		return;
	}
	uint64_t cpu = 0;
	for (const struct thread *t = s->threads; t; t = t->hh.next)
		cpu += t->cpu_ns;
	img->cpu_seconds = (double)cpu / 1e9;
	img->cpu_source = cpu ? GT_REPLAY_CPU_USAGE : GT_REPLAY_CPU_NONE;
}

static void free_live(struct live **table)
{
	struct live *e, *tmp;
	HASH_ITER(hh, *table, e, tmp)
	{
		HASH_DEL(*table, e);
		free(e);
	}
}

/* Writes the header, closes the stream and frees the state. */
static void finish(struct extraction *x, struct state *s)
{
	struct gt_replay_image *img = image_of(x, s);
	cpu_time(img, s);
	close_ops(img, s);
	FILE *f = img->ops_path ? fopen(img->ops_path, "r+be") : NULL;
	if (img->ops_path && (!f || fwrite(&img->h, sizeof(img->h), 1, f) != 1 || fclose(f)))
		gt_die("cannot write '%s': %s", img->ops_path, strerror(errno));
	free_live(&s->live);
	free_live(&s->displaced);
	struct thread *t, *tmp;
	HASH_ITER(hh, s->threads, t, tmp)
	{
		HASH_DEL(s->threads, t);
		free(t);
	}
	free(s->free_slots);
	free(s->rel_thread);
	free(s->rel_index);
	free(s);
}

static void release_image(struct gt_replay_image *img)
{
	if (img->ops_path)
		unlink(img->ops_path);
	free(img->ops_path);
	for (size_t a = 0; a < img->argc; a++)
		free(img->argv[a]);
	free(img->argv);
}

/* Drops the images without ops, keeping the others' order. */
static void drop_empty(struct gt_replay_images *imgs)
{
	size_t kept = 0;
	for (size_t i = 0; i < imgs->n; i++) {
		if (imgs->v[i].h.ops) {
			imgs->v[kept++] = imgs->v[i];
			continue;
		}
		release_image(&imgs->v[i]);
	}
	imgs->n = kept;
}

void gt_replay_extract(const char *path, const char *dir, long pid, struct gt_replay_images *out)
{
	struct extraction x = {.dir = dir, .out = out};
	memset(out, 0, sizeof(*out));
	struct gt_reader *r = gt_reader_open(path);
	struct gt_block b;
	while (gt_reader_next(r, &b))
		if (pid <= 0 || b.h.pid == (uint32_t)pid)
			feed(&x, &b);
	out->torn = gt_reader_torn(r);
	gt_reader_close(r);
	struct state *s, *tmp;
	HASH_ITER(hh, x.states, s, tmp)
	{
		HASH_DEL(x.states, s);
		finish(&x, s);
	}
	drop_empty(out);
}

void gt_replay_images_release(struct gt_replay_images *imgs)
{
	for (size_t i = 0; i < imgs->n; i++)
		release_image(&imgs->v[i]);
	free(imgs->v);
	memset(imgs, 0, sizeof(*imgs));
}
