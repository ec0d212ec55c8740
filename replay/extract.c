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
#include "model.h"
#include "opstream.h"
#include "reader.h"
#include "records.h"

/* Everything extraction keeps per image besides what extract.h reports. */
struct state {
	uint64_t id; /* key */
	size_t pos;  /* in out->v */
	struct gt_opstream ops;
	uint64_t serial; /* the thread whose calls follow (THREAD) */
	FILE *out;
	uint64_t now_ns;
	int block_start;
	UT_hash_handle hh;
};

struct extraction {
	const char *dir;
	struct gt_replay_images *out;
	struct state *states;
	/* gittrace-report's model of the same blocks: the images' CPU time as
	 * its verdict counts it, and its warning for a missing block. */
	struct gt_model *model;
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
	s->serial = 1; /* until a THREAD record says otherwise (format.h) */
	gt_opstream_init(&s->ops);
	s->pos = x->out->n++;
	x->out->v = gt_xrealloc(x->out->v, x->out->n * sizeof(*x->out->v));
	memset(&x->out->v[s->pos], 0, sizeof(x->out->v[s->pos]));
	image_of(x, s)->id = b->h.image_id;
	image_of(x, s)->pid = b->h.pid;
	HASH_ADD(hh, x->states, id, sizeof(s->id), s);
	return s;
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
	if (fwrite(&s->ops.h, sizeof(s->ops.h), 1, s->out) != 1)
		gt_die("cannot write '%s': %s", img->ops_path, strerror(errno));
}

static void close_ops(struct gt_replay_image *img, struct state *s)
{
	if (s->out && fclose(s->out))
		gt_die("cannot write '%s': %s", img->ops_path, strerror(errno));
	s->out = NULL;
}

static void call(struct extraction *x, struct state *s, const struct gt_block *b,
		 const struct gt_rec_call *c)
{
	uint64_t t = (s->block_start ? b->h.base_ns : s->now_ns) + (uint64_t)c->dts;
	s->block_start = 0;
	s->now_ns = t;
	if (c->fn >= GT_REPLAY_FNS)
		return; /* the maps are git's own, not the allocator's */
	struct gt_replay_image *img = image_of(x, s);
	img->recorded_calls++;
	if (!s->out)
		open_ops(x, s);
	gt_opstream_call(&s->ops, s->serial, c, t, s->out, img->ops_path);
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
		s->serial = r->u.thread.serial;
		break;
	case GT_REC_CALL:
		call(x, s, b, &r->u.call);
		break;
	case GT_REC_END:
		close_ops(image_of(x, s), s);
		break;
	default:
		break;
	}
}

static void feed(struct extraction *x, const struct gt_block *b)
{
	struct state *s = state_for(x, b);
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
 * The program's CPU time as gittrace-report's verdict takes it: END's user
 * + system less the tracer's estimated share, but never less than the time
 * inside the calls (a short run's tracer estimate can exceed its CPU
 * time). Without END (a cut trace), the threads' last USAGE readings: a
 * lower bound, and only there after file maps.
 */
static void cpu_time(struct gt_replay_image *img, const struct gt_image *mi)
{
	if (mi->ended) {
		double cpu = gt_image_cpu_seconds(mi) - gt_image_tracer_seconds(mi);
		double inside = gt_image_allocator_seconds(mi) + gt_image_mmap_seconds(mi);
		img->cpu_seconds = cpu > inside ? cpu : inside;
		img->cpu_source = GT_REPLAY_CPU_END;
		return;
	}
	uint64_t ns = 0;
	for (const struct gt_thread *t = mi->threads; t; t = t->hh.next)
		ns += t->has_usage ? t->usage.user_ns + t->usage.system_ns : 0;
	img->cpu_seconds = (double)ns / 1e9;
	img->cpu_source = ns ? GT_REPLAY_CPU_USAGE : GT_REPLAY_CPU_NONE;
}

/* The model's image of s. */
static const struct gt_image *model_image(const struct extraction *x, const struct state *s)
{
	for (size_t i = 0; i < gt_model_count(x->model); i++)
		if (gt_model_image(x->model, i)->id == s->id)
			return gt_model_image(x->model, i);
	BUG("an image the model has not seen");
}

/* Writes the header, closes the stream and frees the state. */
static void finish(struct extraction *x, struct state *s)
{
	struct gt_replay_image *img = image_of(x, s);
	cpu_time(img, model_image(x, s));
	close_ops(img, s);
	img->h = s->ops.h;
	img->untracked_frees = s->ops.untracked_frees;
	img->untracked_reallocs = s->ops.untracked_reallocs;
	FILE *f = img->ops_path ? fopen(img->ops_path, "r+be") : NULL;
	if (img->ops_path && (!f || fwrite(&img->h, sizeof(img->h), 1, f) != 1 || fclose(f)))
		gt_die("cannot write '%s': %s", img->ops_path, strerror(errno));
	gt_opstream_release(&s->ops);
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
	struct extraction x = {.dir = dir, .out = out, .model = gt_model_new()};
	memset(out, 0, sizeof(*out));
	struct gt_reader *r = gt_reader_open(path);
	struct gt_block b;
	while (gt_reader_next(r, &b))
		if (pid <= 0 || b.h.pid == (uint32_t)pid) {
			gt_model_feed(x.model, &b);
			feed(&x, &b);
		}
	out->torn = gt_reader_torn(r);
	gt_model_finish(x.model, out->torn);
	gt_reader_close(r);
	struct state *s, *tmp;
	HASH_ITER(hh, x.states, s, tmp)
	{
		HASH_DEL(x.states, s);
		finish(&x, s);
	}
	gt_model_free(x.model);
	drop_empty(out);
}

void gt_replay_images_release(struct gt_replay_images *imgs)
{
	for (size_t i = 0; i < imgs->n; i++)
		release_image(&imgs->v[i]);
	free(imgs->v);
	memset(imgs, 0, sizeof(*imgs));
}
