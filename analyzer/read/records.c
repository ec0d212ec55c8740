/*
 * Record framing and body decoding. See records.h.
 */
#include "records.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "die.h"

/* Column names, for errors. */
static const char *const column_names[GT_COL_COUNT] = {
	[GT_COL_RECORDS] = "records",
	[GT_COL_TIME] = "time",
	[GT_COL_DURATION] = "duration",
	[GT_COL_STACK] = "stack",
	[GT_COL_SIZE] = "size",
	[GT_COL_ADDR] = "address",
	[GT_COL_OTHER] = "other",
	[GT_COL_NEW_ADDR] = "new address",
	[GT_COL_RETURNED] = "returned address",
};

static void die_corrupt(const struct gt_block *b, const char *what)
{
	gt_die("corrupt block at offset %llu: %s", (unsigned long long)b->offset, what);
}

/*
 * A 2.x or later block: the column directory, then the columns (format.h).
 * The columns an older MAJOR's block does not have stay empty.
 */
static void find_columns(struct gt_rec_iter *it)
{
	const struct gt_block *b = it->b;
	struct gt_cursor c = {b->raw, b->raw + b->h.raw_size, 1};
	uint64_t n = gt_get_uv(&c);
	unsigned known = gt_columns_of_major(b->h.major);
	if (!c.ok || n < (uint64_t)known || n > b->h.raw_size)
		die_corrupt(b, "bad column directory");
	uint64_t len[GT_COL_COUNT] = {0}, rest = 0;
	for (uint64_t i = 0; i < n && c.ok; i++) {
		uint64_t l = gt_get_uv(&c);
		if (i < (uint64_t)known)
			len[i] = l;
		else
			rest += l; /* a later MINOR's column: skipped */
		if (l > b->h.raw_size)
			c.ok = 0;
	}
	if (!c.ok)
		die_corrupt(b, "bad column directory");
	const uint8_t *p = c.p;
	uint64_t left = (uint64_t)(c.end - p);
	for (int i = 0; i < GT_COL_COUNT; i++) {
		if (len[i] > left)
			die_corrupt(b, "its columns run past the block");
		it->col[i] = (struct gt_cursor){p, p + len[i], 1};
		p += len[i];
		left -= len[i];
	}
	if (rest != left)
		die_corrupt(b, "its columns do not fill the block");
	it->records_start = (size_t)(it->col[GT_COL_RECORDS].p - b->raw);
}

void gt_rec_iter_init(struct gt_rec_iter *it, const struct gt_block *b)
{
	memset(it, 0, offsetof(struct gt_rec_iter, addrs));
	it->call.path.p = "";
	it->b = b;
	it->columns = b->h.major >= 2;
	it->addr_refs = b->h.major >= 3;
	gt_addr_history_reset(&it->addrs, b->h.major);
	it->returned_column = b->h.major >= 4;
	gt_call_times_init(&it->times, b);
	if (it->columns)
		find_columns(it);
}

static void check_count(const struct gt_rec_iter *it)
{
	const struct gt_block *b = it->b;
	if (it->count != b->h.records)
		gt_die("corrupt block at offset %llu: %u records, header says %u",
		       (unsigned long long)b->offset, it->count, b->h.records);
}

/* A 1.x block: tag, length, body, one after another. */
static int next_in_block(struct gt_rec_iter *it, struct gt_rec *rec)
{
	const struct gt_block *b = it->b;
	size_t size = b->h.raw_size;
	if (it->pos >= size) {
		check_count(it);
		return 0;
	}
	struct gt_cursor c = {b->raw + it->pos + 1, b->raw + size, 1};
	rec->tag = b->raw[it->pos];
	rec->offset = it->pos;
	rec->call = NULL;
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

/* An array for a list field, which r owns from now on. */
static void *list(struct gt_record *r, size_t n, size_t size)
{
	if (r->nlists == sizeof(r->lists) / sizeof(r->lists[0]))
		gt_die("internal error: a record kind with more lists than struct gt_record holds");
	return r->lists[r->nlists++] = gt_xcalloc(n, size);
}

/*
 * Field readers by encoding (format.h), into o->field from cursor c. n is
 * the count of the list that follows a COUNT; r owns the lists.
 */
#define GT_GET_U(field)		  o->field = gt_get_uv(c);
#define GT_GET_P(field)		  o->field = gt_get_uv(c);
#define GT_GET_X(field)		  o->field = gt_get_uv(c);
#define GT_GET_S(field)		  o->field = gt_get_sv(c);
#define GT_GET_T(field)		  o->field = str(c);
#define GT_GET_ID(field)	  o->field = gt_get_uv(c);
#define GT_GET_BYTES(field)	  o->field = str(c);
#define GT_GET_COUNT(field)	  n = o->field = count(c, 1);
#define GT_GET_LATER(field)	  o->field = c->p < c->end ? gt_get_uv(c) : 0;
#define GT_GET_ORIGIN(field)	  o->field = gt_get_uv(c);
#define GT_GET_END_REASON(field)  o->field = gt_get_uv(c);
#define GT_GET_DROP_REASON(field) o->field = gt_get_uv(c);
#define GT_GET_STRS(field)                                                                         \
	o->field = list(r, n, sizeof(*o->field));                                                  \
	for (size_t i = 0; i < n; i++)                                                             \
		o->field[i] = str(c);
#define GT_GET_IPS(field)                                                                          \
	o->field = list(r, n, sizeof(*o->field));                                                  \
	for (size_t i = 0; i < n; i++)                                                             \
		o->field[i] = gt_get_uv(c);
#define GT_GET(field, enc, label) GT_GET_##enc(field)
/* Resets a CALL's argument to what an unset one reads. */
#define GT_CLEAR_U(field)	    o->field = 0;
#define GT_CLEAR_P(field)	    o->field = 0;
#define GT_CLEAR_X(field)	    o->field = 0;
#define GT_CLEAR_S(field)	    o->field = 0;
#define GT_CLEAR_T(field)	    o->field = (struct gt_str){"", 0};
#define GT_CLEAR(field, enc, label) GT_CLEAR_##enc(field)
/*
 * A 2.x CALL's argument, from the column of its encoding; an address by
 * get_addr, as an argument of its role, in a call of the bytes its sizes
 * so far make (format.h, "Addresses").
 */
#define GT_GET_COLUMN_U(field)                                                                     \
	GT_GET_U(field)                                                                            \
	bytes *= GT_ADDR_BYTES_##field(o->field);
#define GT_GET_COLUMN_P(field) o->field = get_addr(it, GT_ADDR_ROLE_##field, bytes);
#define GT_GET_COLUMN_X(field) GT_GET_X(field)
#define GT_GET_COLUMN_S(field) GT_GET_S(field)
#define GT_GET_COLUMN_T(field) GT_GET_T(field)
#define GT_GET_FROM_COLUMN(field, enc, label)                                                      \
	{                                                                                          \
		struct gt_cursor *c = &it->col[GT_COLUMN_OF_##enc];                                \
		(void)c;                                                                           \
		GT_GET_COLUMN_##enc(field)                                                         \
	}

/*
 * Dies naming the first column that ended early, if one did: the call's
 * values read from it are 0s, and any error they lead to is that one.
 */
static void die_if_a_column_ended(const struct gt_rec_iter *it)
{
	for (int i = 0; i < GT_COL_COUNT; i++)
		if (!it->col[i].ok)
			gt_die("corrupt block at offset %llu: its %s column ends early",
			       (unsigned long long)it->b->offset, column_names[i]);
}

/* The next address of a 2.x or later CALL (format.h, "Addresses"). */
static uint64_t get_addr(struct gt_rec_iter *it, enum gt_addr_role role, uint64_t bytes)
{
	if (!gt_fn_is_heap(it->call.fn))
		role = GT_ADDR_PLAIN;
	int returned = it->returned_column && role == GT_ADDR_RETURNED;
	uint64_t code = gt_get_uv(&it->col[returned ? GT_COL_RETURNED : GT_COL_ADDR]);
	if (!it->addr_refs)
		return code; /* 2.x: the address whole */
	struct gt_cursor *new_addr = &it->col[GT_COL_NEW_ADDR];
	int64_t delta = 0;
	if (code == GT_ADDR_NEW && !it->returned_column)
		delta = gt_get_sv(new_addr);
	else if (code == GT_ADDR_NEW && !gt_get_new_addr(new_addr, &delta)) {
		die_if_a_column_ended(it);
		die_corrupt(it->b, "an entry of its new address column is none a writer makes");
	}
	if (!new_addr->ok)
		return 0; /* decode_call_columns reports the column that ended */
	uint64_t addr;
	if (gt_addr_decode(&it->addrs, code, delta, role, bytes, &addr))
		return addr;
	die_if_a_column_ended(it); /* a size column that ended gives bytes of 0 */
	unsigned long long block = it->b->offset, call = it->records_start + it->pos - 1;
	if (code == GT_ADDR_NEW)
		gt_die("corrupt block at offset %llu: a call at offset %llu has a new address of 0",
		       block, call);
	if (code < gt_addr_ref(&it->addrs.freed, role, 1))
		gt_die("corrupt block at offset %llu: a call at offset %llu takes a freed block "
		       "its block does not hold for it",
		       block, call);
	gt_die("corrupt block at offset %llu: a call at offset %llu refers to an address %llu "
	       "back, which its block cannot have (%llu so far, at most %u back)",
	       block, call, (unsigned long long)(code - gt_addr_ref(&it->addrs.freed, role, 0)),
	       (unsigned long long)it->addrs.n, GT_ADDR_WINDOW);
}

/* A 2.x CALL: its token, then its fields from the columns (format.h, CALL). */
static void decode_call_columns(struct gt_rec_iter *it, uint8_t token)
{
	struct gt_rec_call *o = &it->call;
	/*
	 * Only the arguments the previous call set go back to 0: zeroing the
	 * whole struct (rep stos) took a tenth of a report's time.
	 */
#define GT_CLEAR_CASE(NAME, value, name)                                                           \
	case GT_FN_##NAME:                                                                         \
		GT_ARGS_##NAME(GT_CLEAR) break;
	switch ((enum gt_fn)o->fn) {
		GT_FNS(GT_CLEAR_CASE)
	case GT_FN_COUNT:
		break;
	}
#undef GT_CLEAR_CASE
	o->dur_ns = o->stack = 0;
	o->fn = token & GT_CALL_FN;
	if (o->fn >= GT_FN_COUNT)
		gt_die("corrupt block at offset %llu: a call of unknown function %u at offset %llu",
		       (unsigned long long)it->b->offset, o->fn,
		       (unsigned long long)(it->records_start + it->pos));
	o->timed = (token & GT_CALL_TIMED) != 0;
	o->sampled = (token & GT_CALL_SAMPLED) != 0;
	int64_t units =
		gt_call_times_has_dts(&it->times, o->timed) ? gt_get_sv(&it->col[GT_COL_TIME]) : 0;
	if (o->timed)
		o->dur_ns = gt_get_uv(&it->col[GT_COL_DURATION]);
	o->dts = gt_call_times_dts(&it->times, o->timed, units, o->dur_ns, &it->col[GT_COL_RECORDS],
				   &it->col[GT_COL_TIME]);
	if (token & GT_CALL_STACK)
		o->stack = gt_get_uv(&it->col[GT_COL_STACK]);
	uint64_t bytes = 1; /* of a block returned, as its U arguments go by */
#define GT_DECODE_CASE(NAME, value, name)                                                          \
	case GT_FN_##NAME:                                                                         \
		GT_ARGS_##NAME(GT_GET_FROM_COLUMN) break;
	switch ((enum gt_fn)o->fn) {
		GT_FNS(GT_DECODE_CASE)
	case GT_FN_COUNT:
		break;
	}
#undef GT_DECODE_CASE
	/*
	 * All columns at once, without a branch or a loop counter each: this
	 * runs for every call (unrolled, 6% fewer instructions in decoding).
	 */
	int ok = 1;
#pragma GCC unroll 16
	for (int i = 0; i < GT_COL_COUNT; i++)
		ok &= it->col[i].ok;
	if (!ok)
		die_if_a_column_ended(it);
}

/* A 2.x block: entries of GT_COL_RECORDS, CALLs' fields from the other columns. */
static int next_in_columns(struct gt_rec_iter *it, struct gt_rec *rec)
{
	const struct gt_block *b = it->b;
	struct gt_cursor *r = &it->col[GT_COL_RECORDS];
	if (r->p >= r->end) {
		check_count(it);
		for (int i = 0; i < GT_COL_COUNT; i++)
			if (it->col[i].p != it->col[i].end)
				gt_die("corrupt block at offset %llu: its %s column has bytes "
				       "left over",
				       (unsigned long long)b->offset, column_names[i]);
		return 0;
	}
	rec->offset = (uint64_t)(r->p - b->raw);
	uint8_t tag = *r->p++;
	it->pos = (size_t)(r->p - b->raw) - it->records_start;
	rec->call = NULL;
	rec->body = NULL;
	rec->len = 0;
	if (tag & GT_CALL_TOKEN) {
		rec->tag = GT_REC_CALL;
		decode_call_columns(it, tag);
		rec->call = &it->call;
	} else {
		if (tag == GT_REC_CALL)
			gt_die("corrupt block at offset %llu: a CALL outside a token at offset "
			       "%llu",
			       (unsigned long long)b->offset, (unsigned long long)rec->offset);
		rec->tag = tag;
		uint64_t len = gt_get_uv(r);
		if (!r->ok || len > (uint64_t)(r->end - r->p))
			gt_die("corrupt block at offset %llu: record at offset %llu runs past "
			       "its column",
			       (unsigned long long)b->offset, (unsigned long long)rec->offset);
		rec->body = r->p;
		rec->len = (size_t)len;
		r->p += len;
	}
	it->count++;
	return 1;
}

int gt_rec_next(struct gt_rec_iter *it, struct gt_rec *rec)
{
	return it->columns ? next_in_columns(it, rec) : next_in_block(it, rec);
}

#define GT_RECORD_DECODER(NAME, value, name)                                                       \
	static void decode_##name(struct gt_cursor *c, struct gt_record *r)                        \
	{                                                                                          \
		struct gt_rec_##name *o = &r->u.name;                                              \
		size_t n = 0;                                                                      \
		(void)n;                                                                           \
		GT_FIELDS_##NAME(GT_GET)                                                           \
	}
GT_FIELD_RECORDS(GT_RECORD_DECODER)
#undef GT_RECORD_DECODER

/* Returns 0 for a function this reader does not know. */
static int decode_call(struct gt_cursor *c, struct gt_rec_call *o)
{
	o->path.p = "";
	o->fn = gt_get_u8(c);
	if (!c->ok || o->fn >= GT_FN_COUNT)
		return 0;
	o->timed = 1;
	o->dts = gt_get_sv(c);
	o->dur_ns = gt_get_uv(c);
	o->stack = gt_get_uv(c);
#define GT_DECODE_CASE(NAME, value, name)                                                          \
	case GT_FN_##NAME:                                                                         \
		GT_ARGS_##NAME(GT_GET) break;
	switch ((enum gt_fn)o->fn) {
		GT_FNS(GT_DECODE_CASE)
	case GT_FN_COUNT:
		break;
	}
#undef GT_DECODE_CASE
	return 1;
}

void gt_decode_record(const struct gt_block *b, const struct gt_rec *raw, struct gt_record *out)
{
	if (raw->call) { /* 2.x: decoded from the columns already; most records */
		out->raw = *raw;
		out->known = 1;
		out->nlists = 0;
		out->u.call = *raw->call;
		return;
	}
	struct gt_cursor c = {raw->body, raw->body + raw->len, 1};
	memset(out, 0, sizeof(*out));
	out->raw = *raw;
	out->known = 1;
	switch (raw->tag) {
#define GT_DECODE_CASE(NAME, value, name)                                                          \
	case GT_REC_##NAME:                                                                        \
		decode_##name(&c, out);                                                            \
		break;
		GT_FIELD_RECORDS(GT_DECODE_CASE)
#undef GT_DECODE_CASE
	case GT_REC_CALL:
		out->known = decode_call(&c, &out->u.call);
		break;
	default:
		out->known = 0;
		break;
	}
	if (!c.ok) {
		gt_record_release(out);
		gt_die("corrupt block at offset %llu: %s record at offset %llu is too short",
		       (unsigned long long)b->offset, gt_rec_tag_name(raw->tag),
		       (unsigned long long)raw->offset);
	}
	if (raw->tag == GT_REC_STACK && out->u.stack.depth > GT_STACK_DEPTH_MAX) {
		uint64_t depth = out->u.stack.depth;
		gt_record_release(out);
		gt_die("corrupt block at offset %llu: a STACK of %llu frames at offset %llu, more "
		       "than the %d a writer makes",
		       (unsigned long long)b->offset, (unsigned long long)depth,
		       (unsigned long long)raw->offset, GT_STACK_DEPTH_MAX);
	}
}

void gt_record_release(struct gt_record *r)
{
	for (size_t i = 0; i < r->nlists; i++)
		free(r->lists[i]);
	r->nlists = 0;
}

const char *gt_rec_tag_name(uint8_t tag)
{
	switch (tag) {
#define GT_TAG_NAME(NAME, value, name)                                                             \
	case GT_REC_##NAME:                                                                        \
		return #NAME;
		GT_RECORDS(GT_TAG_NAME)
#undef GT_TAG_NAME
	}
	return NULL;
}
