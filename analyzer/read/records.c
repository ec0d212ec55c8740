/*
 * Record framing and body decoding. See records.h.
 */
#include "records.h"

#include <stdlib.h>

#include "die.h"

void gt_rec_iter_init(struct gt_rec_iter *it, const struct gt_block *b)
{
	it->b = b;
	it->pos = 0;
	it->count = 0;
}

int gt_rec_next(struct gt_rec_iter *it, struct gt_rec *rec)
{
	const struct gt_block *b = it->b;
	size_t size = b->h.raw_size;
	if (it->pos >= size) {
		if (it->count != b->h.records)
			gt_die("corrupt block at offset %llu: %u records, header says %u",
			       (unsigned long long)b->offset, it->count, b->h.records);
		return 0;
	}
	struct gt_cursor c = {b->raw + it->pos + 1, b->raw + size, 1};
	rec->tag = b->raw[it->pos];
	rec->offset = it->pos;
	uint64_t len = gt_get_uv(&c);
	if (!c.ok || len > (uint64_t)(c.end - c.p))
		gt_die("corrupt block at offset %llu: record at offset %llu runs past the block",
		       (unsigned long long)b->offset, (unsigned long long)it->pos);
	rec->body = c.p;
	rec->len = (size_t)len;
	it->pos = (size_t)(c.p - b->raw) + rec->len;
	it->count++;
	return 1;
}

static struct gt_cursor body(const struct gt_rec *r)
{
	struct gt_cursor c = {r->body, r->body + r->len, 1};
	return c;
}

static void check(const struct gt_block *b, const struct gt_rec *r, const struct gt_cursor *c)
{
	if (!c->ok)
		gt_die("corrupt block at offset %llu: %s record at offset %llu is too short",
		       (unsigned long long)b->offset, gt_rec_tag_name(r->tag),
		       (unsigned long long)r->offset);
}

static struct gt_str str(struct gt_cursor *c)
{
	struct gt_str s;
	s.p = gt_get_str(c, &s.len);
	if (!s.p)
		s.p = "";
	return s;
}

/* Reads a count of items each at least min_bytes long: bounded by the body. */
static size_t count(struct gt_cursor *c, size_t min_bytes)
{
	uint64_t n = gt_get_uv(c);
	if (n > (uint64_t)(c->end - c->p) / min_bytes) {
		c->ok = 0;
		return 0;
	}
	return (size_t)n;
}

void gt_decode_image(const struct gt_block *b, const struct gt_rec *r, struct gt_rec_image *o)
{
	struct gt_cursor c = body(r);
	o->pid = gt_get_uv(&c);
	o->ppid = gt_get_uv(&c);
	o->start_realtime_ns = gt_get_uv(&c);
	o->start_mono_ns = gt_get_uv(&c);
	o->origin = gt_get_uv(&c);
	o->parent_image_id = gt_get_uv(&c);
	o->pointer_bits = gt_get_uv(&c);
	o->page_size = gt_get_uv(&c);
	o->stack_depth = gt_get_uv(&c);
	o->exe = str(&c);
	o->cwd = str(&c);
	o->argc = count(&c, 1);
	o->argv = gt_xcalloc(o->argc, sizeof(*o->argv));
	for (size_t i = 0; i < o->argc; i++)
		o->argv[i] = str(&c);
	o->envc = count(&c, 1);
	o->env = gt_xcalloc(o->envc, sizeof(*o->env));
	for (size_t i = 0; i < o->envc; i++)
		o->env[i] = str(&c);
	o->clock_overhead_ns = c.p < c.end ? gt_get_uv(&c) : 0;
	if (!c.ok) {
		free(o->argv);
		free(o->env);
	}
	check(b, r, &c);
}

void gt_decode_module(const struct gt_block *b, const struct gt_rec *r, struct gt_module_rec *o)
{
	struct gt_cursor c = body(r);
	o->base = gt_get_uv(&c);
	o->size = gt_get_uv(&c);
	o->path = str(&c);
	o->build_id = str(&c);
	check(b, r, &c);
}

void gt_decode_thread(const struct gt_block *b, const struct gt_rec *r, struct gt_rec_thread *o)
{
	struct gt_cursor c = body(r);
	o->serial = gt_get_uv(&c);
	o->tid = gt_get_uv(&c);
	check(b, r, &c);
}

void gt_decode_stack(const struct gt_block *b, const struct gt_rec *r, struct gt_rec_stack *o)
{
	struct gt_cursor c = body(r);
	o->id = gt_get_uv(&c);
	o->depth = count(&c, 1);
	o->ips = gt_xcalloc(o->depth, sizeof(*o->ips));
	for (size_t i = 0; i < o->depth; i++)
		o->ips[i] = gt_get_uv(&c);
	if (!c.ok)
		free(o->ips);
	check(b, r, &c);
}

int gt_decode_call(const struct gt_block *b, const struct gt_rec *r, struct gt_rec_call *o)
{
	struct gt_cursor c = body(r);
	*o = (struct gt_rec_call){0};
	o->path.p = "";
	o->fn = gt_get_u8(&c);
	check(b, r, &c);
	if (o->fn >= GT_FN_COUNT)
		return 0;
	o->dts = gt_get_sv(&c);
	o->dur_ns = gt_get_uv(&c);
	o->stack = gt_get_uv(&c);
	/* The arguments as format.h's GT_ARGS tables list them. */
#define GT_ARG_GET_U(field)	      o->field = gt_get_uv(&c);
#define GT_ARG_GET_P(field)	      o->field = gt_get_uv(&c);
#define GT_ARG_GET_X(field)	      o->field = gt_get_uv(&c);
#define GT_ARG_GET_S(field)	      o->field = gt_get_sv(&c);
#define GT_ARG_GET_T(field)	      o->field = str(&c);
#define GT_ARG_GET(field, enc, label) GT_ARG_GET_##enc(field)
#define GT_DECODE_CASE(NAME, value, name)                                                          \
	case GT_FN_##NAME:                                                                         \
		GT_ARGS_##NAME(GT_ARG_GET) break;
	switch ((enum gt_fn)o->fn) {
		GT_FNS(GT_DECODE_CASE)
	case GT_FN_COUNT:
		break;
	}
	check(b, r, &c);
	return 1;
}

void gt_decode_end(const struct gt_block *b, const struct gt_rec *r, struct gt_rec_end *o)
{
	struct gt_cursor c = body(r);
	o->reason = gt_get_uv(&c);
	o->status = gt_get_sv(&c);
	o->end_realtime_ns = gt_get_uv(&c);
	o->end_mono_ns = gt_get_uv(&c);
	o->user_ns = gt_get_uv(&c);
	o->system_ns = gt_get_uv(&c);
	o->maxrss_kib = gt_get_uv(&c);
	o->minflt = gt_get_uv(&c);
	o->majflt = gt_get_uv(&c);
	o->calls = gt_get_uv(&c);
	o->dropped = gt_get_uv(&c);
	o->threads = gt_get_uv(&c);
	o->tracer_ns = c.p < c.end ? gt_get_uv(&c) : 0;
	check(b, r, &c);
}

void gt_decode_exec_failed(const struct gt_block *b, const struct gt_rec *r,
			   struct gt_rec_exec_failed *o)
{
	struct gt_cursor c = body(r);
	o->err = gt_get_sv(&c);
	check(b, r, &c);
}

void gt_decode_dropped(const struct gt_block *b, const struct gt_rec *r, struct gt_rec_dropped *o)
{
	struct gt_cursor c = body(r);
	o->count = gt_get_uv(&c);
	o->reason = gt_get_uv(&c);
	check(b, r, &c);
}

void gt_decode_usage(const struct gt_block *b, const struct gt_rec *r, struct gt_rec_usage *o)
{
	struct gt_cursor c = body(r);
	o->minflt = gt_get_uv(&c);
	o->majflt = gt_get_uv(&c);
	o->user_ns = gt_get_uv(&c);
	o->system_ns = gt_get_uv(&c);
	check(b, r, &c);
}

const char *gt_rec_tag_name(uint8_t tag)
{
	switch (tag) {
	case GT_REC_IMAGE:
		return "IMAGE";
	case GT_REC_MODULE:
		return "MODULE";
	case GT_REC_THREAD:
		return "THREAD";
	case GT_REC_STACK:
		return "STACK";
	case GT_REC_CALL:
		return "CALL";
	case GT_REC_END:
		return "END";
	case GT_REC_EXEC_FAILED:
		return "EXEC_FAILED";
	case GT_REC_DROPPED:
		return "DROPPED";
	case GT_REC_USAGE:
		return "USAGE";
	}
	return NULL;
}
