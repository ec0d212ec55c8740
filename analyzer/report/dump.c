/*
 * The --dump text form. See dump.h and docs/report.md for the format.
 */
#include "dump.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "mapkind.h"

void gt_dump_escape(FILE *out, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c <= ' ' || c >= 0x7f || strchr(",;=\\", c))
			fprintf(out, "\\x%02x", c);
		else
			fputc(c, out);
	}
}

static void str_field(FILE *out, const char *key, const struct gt_str *s)
{
	fprintf(out, " %s=", key);
	gt_dump_escape(out, s->p, s->len);
}

static void dump_list(FILE *out, const char *key, const struct gt_str *v, size_t n)
{
	fprintf(out, " %s=", key);
	for (size_t i = 0; i < n; i++) {
		if (i)
			fputc(',', out);
		gt_dump_escape(out, v[i].p, v[i].len);
	}
}

static void dump_ips(FILE *out, const char *key, const uint64_t *ips, size_t n)
{
	fprintf(out, " %s=", key);
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s0x%" PRIx64, i ? "," : "", ips[i]);
}

static void dump_bytes(FILE *out, const char *key, const struct gt_str *s)
{
	fprintf(out, " %s=", key);
	for (size_t i = 0; i < s->len; i++)
		fprintf(out, "%02x", (unsigned char)s->p[i]);
	if (!s->len)
		fputc('-', out);
}

/* Field printers by encoding (format.h), of o->field. */
#define SHOW_U(field, label)	 fprintf(out, " " label "=%" PRIu64, o->field);
#define SHOW_P(field, label)	 fprintf(out, " " label "=0x%" PRIx64, o->field);
#define SHOW_X(field, label)	 fprintf(out, " " label "=0x%" PRIx64, o->field);
#define SHOW_S(field, label)	 fprintf(out, " " label "=%" PRId64, o->field);
#define SHOW_T(field, label)	 str_field(out, label, &o->field);
#define SHOW_ID(field, label)	 fprintf(out, " " label "=%016" PRIx64, o->field);
#define SHOW_BYTES(field, label) dump_bytes(out, label, &o->field);
#define SHOW_COUNT(field, label)                                                                   \
	fprintf(out, " " label "=%zu", o->field);                                                  \
	n = o->field;
#define SHOW_STRS(field, label)	 dump_list(out, label, o->field, n);
#define SHOW_IPS(field, label)	 dump_ips(out, label, o->field, n);
#define SHOW_LATER(field, label) SHOW_U(field, label)
#define SHOW_ORIGIN(field, label)                                                                  \
	fprintf(out, " " label "=%s", GT_NAME_OF(gt_origin_names, o->field));
#define SHOW_END_REASON(field, label)                                                              \
	fprintf(out, " " label "=%s", GT_NAME_OF(gt_end_reason_names, o->field));
#define SHOW_DROP_REASON(field, label)                                                             \
	fprintf(out, " " label "=%s", GT_NAME_OF(gt_drop_reason_names, o->field));
#define SHOW(field, enc, label) SHOW_##enc(field, label)

/* dump_<name>(out, o): a record's fields as GT_FIELDS_<NAME> lists and names them. */
#define RECORD_PRINTER(NAME, value, name)                                                          \
	static void dump_##name(FILE *out, const struct gt_rec_##name *o)                          \
	{                                                                                          \
		size_t n = 0;                                                                      \
		(void)n;                                                                           \
		GT_FIELDS_##NAME(SHOW)                                                             \
	}
GT_FIELD_RECORDS(RECORD_PRINTER)
#undef RECORD_PRINTER

/* A stack's frames, named with the modules the model holds for its image. */
static void dump_frames(const struct gt_dump *d, const struct gt_image *img, uint64_t id)
{
	const struct gt_stack *st = gt_image_stack(img, id);
	fputs(" frames=", d->out);
	if (!st)
		return;
	struct gt_frame *f;
	size_t n = gt_symbolize_stack(d->sym, img, st, &f);
	for (size_t i = 0; i < n; i++) {
		if (i)
			fputc(';', d->out);
		gt_dump_escape(d->out, f[i].function, strlen(f[i].function));
	}
	free(f);
}

/*
 * A CALL with the thread and time the model gave it, then its arguments as
 * GT_ARGS_<FN> lists them; a map's path comes with the kind the analyzer
 * gives it.
 */
static void dump_call(FILE *out, const struct gt_image *img, const struct gt_rec_call *o)
{
	fprintf(out, " fn=%s thread=%" PRIu64 " tid=%" PRIu64 " stack=%" PRIu64 " t_ns=%" PRIu64,
		gt_fn_names[o->fn], img->cur ? img->cur->heap.serial : 1,
		img->cur ? img->cur->tid : 0, o->stack, img->now_ns);
	if (o->timed)
		fprintf(out, " dur_ns=%" PRIu64 "%s", o->dur_ns, o->sampled ? " sampled=1" : "");
	else
		fputs(" dur_ns=-", out);
#define SHOW_ARG_T(field, label)                                                                   \
	fprintf(out, " kind=%s",                                                                   \
		gt_map_kind_names[gt_map_kind_of(o->flags, o->path.p, o->path.len)]);              \
	SHOW_T(field, label)
#define SHOW_ARG_U		    SHOW_U
#define SHOW_ARG_P		    SHOW_P
#define SHOW_ARG_X		    SHOW_X
#define SHOW_ARG_S		    SHOW_S
#define SHOW_ARG(field, enc, label) SHOW_ARG_##enc(field, label)
#define SHOW_CASE(NAME, value, name)                                                               \
	case GT_FN_##NAME:                                                                         \
		GT_ARGS_##NAME(SHOW_ARG) break;
	switch ((enum gt_fn)o->fn) {
		GT_FNS(SHOW_CASE)
	case GT_FN_COUNT:
		break;
	}
}

/* In front of every line: the block's image, pid and number. */
#define GT_DUMP_PREFIX "image=%016" PRIx64 " pid=%" PRIu32 " seq=%" PRIu32 " "

static void dump_record(const struct gt_dump *d, const struct gt_image *img,
			const struct gt_block *b, const struct gt_record *r)
{
	FILE *out = d->out;
	fprintf(out, GT_DUMP_PREFIX, b->h.image_id, b->h.pid, b->h.seq);
	if (!r->known) {
		fprintf(out, "UNKNOWN tag=%u len=%zu", r->raw.tag, r->raw.len);
		if (r->raw.tag == GT_REC_CALL)
			fprintf(out, " fn=%u", r->raw.len ? r->raw.body[0] : 0);
		fputc('\n', out);
		return;
	}
	fputs(gt_rec_tag_name(r->raw.tag), out);
	switch ((enum gt_record_tag)r->raw.tag) {
#define PRINT_CASE(NAME, value, name)                                                              \
	case GT_REC_##NAME:                                                                        \
		dump_##name(out, &r->u.name);                                                      \
		break;
		GT_FIELD_RECORDS(PRINT_CASE)
#undef PRINT_CASE
	case GT_REC_CALL:
		dump_call(out, img, &r->u.call);
		break;
	}
	if (r->raw.tag == GT_REC_STACK)
		dump_frames(d, img, r->u.stack.id);
	fputc('\n', out);
}

void gt_dump_block(const struct gt_dump *d, struct gt_model *m, const struct gt_block *b)
{
	struct gt_model_step s;
	fprintf(d->out, GT_DUMP_PREFIX, b->h.image_id, b->h.pid, b->h.seq);
	fprintf(d->out,
		"BLOCK offset=%" PRIu64 " version=%u.%u frame_size=%" PRIu32 " raw_size=%" PRIu32
		" records=%" PRIu32 " base_ns=%" PRIu64 "\n",
		b->offset, b->h.major, b->h.minor, b->h.frame_size, b->h.raw_size, b->h.records,
		b->h.base_ns);
	gt_model_step_begin(&s, m, b);
	while (gt_model_step(&s))
		dump_record(d, s.img, b, &s.rec);
}
