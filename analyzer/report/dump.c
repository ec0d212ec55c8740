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

static const char *end_reason_name(uint64_t r)
{
	switch (r) {
	case GT_END_EXIT:
		return "exit";
	case GT_END_UNDERSCORE_EXIT:
		return "_exit";
	case GT_END_EXEC:
		return "exec";
	}
	return "unknown";
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

static void dump_image(FILE *out, const struct gt_block *b, const struct gt_rec *rec)
{
	struct gt_rec_image r;
	gt_decode_image(b, rec, &r);
	fprintf(out,
		"IMAGE pid=%" PRIu64 " ppid=%" PRIu64 " origin=%s parent=%016" PRIx64
		" start_realtime_ns=%" PRIu64 " start_ns=%" PRIu64 " pointer_bits=%" PRIu64
		" page_size=%" PRIu64 " stack_depth=%" PRIu64,
		r.pid, r.ppid, gt_origin_name(r.origin), r.parent_image_id, r.start_realtime_ns,
		r.start_mono_ns, r.pointer_bits, r.page_size, r.stack_depth);
	str_field(out, "exe", &r.exe);
	str_field(out, "cwd", &r.cwd);
	fprintf(out, " argc=%zu", r.argc);
	dump_list(out, "argv", r.argv, r.argc);
	fprintf(out, " envc=%zu", r.envc);
	dump_list(out, "env", r.env, r.envc);
	free(r.argv);
	free(r.env);
}

static void dump_module(FILE *out, const struct gt_block *b, const struct gt_rec *rec)
{
	struct gt_module_rec r;
	gt_decode_module(b, rec, &r);
	fprintf(out, "MODULE base=0x%" PRIx64 " size=0x%" PRIx64, r.base, r.size);
	str_field(out, "path", &r.path);
	fputs(" build_id=", out);
	for (size_t j = 0; j < r.build_id.len; j++)
		fprintf(out, "%02x", (unsigned char)r.build_id.p[j]);
	if (!r.build_id.len)
		fputc('-', out);
}

static void dump_stack(struct gt_dump *d, const struct gt_image *img, const struct gt_block *b,
		       const struct gt_rec *rec)
{
	struct gt_rec_stack r;
	gt_decode_stack(b, rec, &r);
	fprintf(d->out, "STACK id=%" PRIu64 " depth=%zu ips=", r.id, r.depth);
	for (size_t i = 0; i < r.depth; i++)
		fprintf(d->out, "%s0x%" PRIx64, i ? "," : "", r.ips[i]);
	/* The model already stored this stack: name it with the image's modules. */
	const struct gt_stack *st = gt_image_stack(img, r.id);
	fputs(" frames=", d->out);
	if (st) {
		struct gt_frame *f;
		size_t n = gt_symbolize_stack(d->sym, img, st, &f);
		for (size_t i = 0; i < n; i++) {
			if (i)
				fputc(';', d->out);
			gt_dump_escape(d->out, f[i].function, strlen(f[i].function));
		}
		gt_frames_free(f, n);
	}
	free(r.ips);
}

static void dump_call(FILE *out, const struct gt_image *img, const struct gt_rec_call *c)
{
	fprintf(out,
		"CALL fn=%s thread=%" PRIu64 " tid=%" PRIu64 " stack=%" PRIu64 " t_ns=%" PRIu64
		" dur_ns=%" PRIu64,
		gt_fn_names[c->fn], img->cur ? img->cur->heap.serial : 1,
		img->cur ? img->cur->tid : 0, c->stack, img->now_ns, c->dur_ns);
	/* The arguments as format.h's GT_ARGS tables list and name them. */
#define GT_ARG_SHOW_U(field, label) fprintf(out, " " label "=%" PRIu64, c->field);
#define GT_ARG_SHOW_P(field, label) fprintf(out, " " label "=0x%" PRIx64, c->field);
#define GT_ARG_SHOW_X(field, label) fprintf(out, " " label "=0x%" PRIx64, c->field);
#define GT_ARG_SHOW_S(field, label) fprintf(out, " " label "=%" PRId64, c->field);
/* A map's path comes with the kind the analyzer gives it. */
#define GT_ARG_SHOW_T(field, label)                                                                \
	fprintf(out, " kind=%s",                                                                   \
		gt_map_kind_names[gt_map_kind_of(c->flags, c->path.p, c->path.len)]);              \
	str_field(out, label, &c->field);
#define GT_ARG_SHOW(field, enc, label) GT_ARG_SHOW_##enc(field, label)
#define GT_SHOW_CASE(NAME, value, name)                                                            \
	case GT_FN_##NAME:                                                                         \
		GT_ARGS_##NAME(GT_ARG_SHOW) break;
	switch ((enum gt_fn)c->fn) {
		GT_FNS(GT_SHOW_CASE)
	case GT_FN_COUNT:
		break;
	}
}

static void dump_end(FILE *out, const struct gt_image *img)
{
	const struct gt_rec_end *e = &img->end;
	fprintf(out,
		"END reason=%s status=%" PRId64 " end_realtime_ns=%" PRIu64 " end_ns=%" PRIu64
		" user_ns=%" PRIu64 " system_ns=%" PRIu64 " maxrss_kib=%" PRIu64 " minflt=%" PRIu64
		" majflt=%" PRIu64 " calls=%" PRIu64 " dropped=%" PRIu64 " threads=%" PRIu64,
		end_reason_name(e->reason), e->status, e->end_realtime_ns, e->end_mono_ns,
		e->user_ns, e->system_ns, e->maxrss_kib, e->minflt, e->majflt, e->calls, e->dropped,
		e->threads);
}

void gt_dump_record(void *ctx, const struct gt_image *img, const struct gt_block *b,
		    const struct gt_rec *rec, const struct gt_rec_call *call)
{
	struct gt_dump *d = ctx;
	FILE *out = d->out;
	const char *prefix_fmt = "image=%016" PRIx64 " pid=%" PRIu32 " seq=%" PRIu32 " ";
	if (rec->offset == 0) {
		fprintf(out, prefix_fmt, b->h.image_id, b->h.pid, b->h.seq);
		fprintf(out,
			"BLOCK offset=%" PRIu64 " version=%u.%u frame_size=%" PRIu32
			" raw_size=%" PRIu32 " records=%" PRIu32 " base_ns=%" PRIu64 "\n",
			b->offset, b->h.major, b->h.minor, b->h.frame_size, b->h.raw_size,
			b->h.records, b->h.base_ns);
	}
	fprintf(out, prefix_fmt, b->h.image_id, b->h.pid, b->h.seq);
	switch (rec->tag) {
	case GT_REC_IMAGE:
		dump_image(out, b, rec);
		break;
	case GT_REC_MODULE:
		dump_module(out, b, rec);
		break;
	case GT_REC_THREAD: {
		struct gt_rec_thread r;
		gt_decode_thread(b, rec, &r);
		fprintf(out, "THREAD serial=%" PRIu64 " tid=%" PRIu64, r.serial, r.tid);
		break;
	}
	case GT_REC_STACK:
		dump_stack(d, img, b, rec);
		break;
	case GT_REC_CALL:
		if (call)
			dump_call(out, img, call);
		else
			fprintf(out, "UNKNOWN tag=%u len=%zu fn=%u", rec->tag, rec->len,
				rec->len ? rec->body[0] : 0);
		break;
	case GT_REC_END:
		dump_end(out, img);
		break;
	case GT_REC_EXEC_FAILED: {
		struct gt_rec_exec_failed r;
		gt_decode_exec_failed(b, rec, &r);
		fprintf(out, "EXEC_FAILED errno=%" PRId64, r.err);
		break;
	}
	case GT_REC_DROPPED: {
		struct gt_rec_dropped r;
		gt_decode_dropped(b, rec, &r);
		fprintf(out, "DROPPED count=%" PRIu64 " reason=%s", r.count,
			r.reason == GT_DROP_NO_MEMORY	   ? "no-memory"
			: r.reason == GT_DROP_LOCK_TIMEOUT ? "lock-timeout"
							   : "unknown");
		break;
	}
	case GT_REC_USAGE: {
		struct gt_rec_usage r;
		gt_decode_usage(b, rec, &r);
		fprintf(out,
			"USAGE minflt=%" PRIu64 " majflt=%" PRIu64 " user_ns=%" PRIu64
			" system_ns=%" PRIu64,
			r.minflt, r.majflt, r.user_ns, r.system_ns);
		break;
	}
	default:
		fprintf(out, "UNKNOWN tag=%u len=%zu", rec->tag, rec->len);
		break;
	}
	fputc('\n', out);
}
