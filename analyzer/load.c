/* Reads a trace into a model and its summary (load.h). */
#include "load.h"

#include "decoder.h"
#include "die.h"
#include "progress.h"
#include "warm.h"

/* What the model's retire hook works with, for the time of gt_load. */
struct retiring {
	struct gt_summary *s;
	int timelines;
	size_t drawn;		/* summarized images with buckets in their timeline */
	struct gt_warmer *warm; /* opening the modules stacks name; NULL once stopped */
};

/*
 * Asks for the modules a new stack's frames lie in, until the first image
 * is summarized: symbols are looked up from then on. A stack's frames run
 * through a few modules in turn, so each run is asked for once.
 */
static void warm_modules(struct gt_warmer *w, const struct gt_image *img,
			 const struct gt_rec_stack *st)
{
	const struct gt_module *prev = NULL;
	for (size_t i = 0; i < st->depth; i++) {
		const struct gt_module *mod = gt_image_module(img, st->ips[i]);
		if (mod && mod != prev)
			gt_warmer_add(w, mod->path, mod->build_id, mod->build_id_len);
		prev = mod;
	}
}

/*
 * Summarizes a retired image. Its timeline, kept for the HTML page, is
 * fitted to the share of the page of the processes drawn so far
 * (gt_timeline_fit); that of an image the summary leaves out (--pid) is
 * not drawn at all.
 */
static void summarize(void *ctx, struct gt_image *img)
{
	struct retiring *r = ctx;
	gt_warmer_stop(r->warm);
	r->warm = NULL;
	gt_summary_add(r->s, img);
	if (!r->timelines)
		return;
	if (!gt_summary_takes(r->s, img))
		gt_timeline_release(&img->timeline);
	else if (img->timeline.n)
		gt_timeline_fit(&img->timeline, gt_timeline_page_points(++r->drawn));
}

void gt_load(struct gt_loaded *l, const char *path, struct gt_symbolizer *sym,
	     const struct gt_load_options *o)
{
	gt_hold_warnings(); /* until the trace proves readable */
	l->m = gt_model_new();
	struct gt_phases *ph = o->phases;
	if (!o->timelines)
		gt_model_no_timelines(l->m);
	struct retiring retiring = {&l->s, o->timelines, 0, NULL};
	gt_summary_init(&l->s, path, sym, o->pid, o->keep_sites, o->replay);
	if (o->look_up_config)
		gt_summary_look_up_config(&l->s);
	if (o->stacks_hook)
		gt_summary_on_stacks(&l->s, o->stacks_hook, o->stacks_ctx);
	gt_model_on_retire(l->m, summarize, &retiring);
	struct gt_decoder *d = gt_decoder_open(path);
	struct gt_symbols *syms = gt_symbolizer_symbols(sym);
	retiring.warm = syms ? gt_warmer_start(syms) : NULL;
	struct gt_progress progress;
	struct gt_model_step s = {0};
	const struct gt_batch *batch;
	gt_progress_init(&progress);
	while (gt_decoder_next(d, &batch)) {
		if (batch->first)
			gt_model_block_begin(&s, l->m, batch->b);
		struct gt_batch_cursor c;
		gt_batch_cursor_init(&c);
		for (const struct gt_record *r; (r = gt_batch_record(batch, &c));) {
			gt_model_apply(&s, r);
			if (retiring.warm && r->raw.tag == GT_REC_STACK && r->known &&
			    (o->pid < 0 || s.img->pid == o->pid))
				warm_modules(retiring.warm, s.img, &r->u.stack);
			if (ph)
				gt_phases_note(ph, s.img, r);
		}
		if (batch->last) {
			gt_model_block_end(&s);
			gt_progress_update(&progress, batch->end, gt_decoder_size(d),
					   gt_model_events(l->m));
		}
	}
	gt_progress_done();
	/* Its buffers (up to two blocks and the ring) are not needed past here. */
	int torn = gt_decoder_torn(d);
	gt_decoder_close(d);
	gt_warmer_stop(retiring.warm);
	retiring.warm = NULL;
	gt_model_finish(l->m, torn);
	gt_model_on_retire(l->m, NULL, NULL); /* retiring's life ends here */
	if (ph)
		gt_phases_finish(ph);
	gt_summary_finish(&l->s, l->m);
	l->s.phases = ph;
	if (o->pid >= 0 && !l->s.n)
		gt_die("no process with pid %ld in '%s'", o->pid, path);
	gt_release_warnings();
}

void gt_load_release(struct gt_loaded *l)
{
	gt_summary_release(&l->s);
	gt_model_free(l->m);
}
