/* Reads a trace into a model and its summary (load.h). */
#include "load.h"

#include "decoder.h"
#include "die.h"
#include "progress.h"

/* What the model's retire hook works with, for the time of gt_load. */
struct retiring {
	struct gt_summary *s;
	int timelines;
	size_t drawn; /* summarized images with buckets in their timeline */
};

/*
 * Summarizes a retired image. Its timeline, kept for the HTML page, is
 * fitted to the share of the page of the processes drawn so far
 * (gt_timeline_fit); that of an image the summary leaves out (--pid) is
 * not drawn at all.
 */
static void summarize(void *ctx, struct gt_image *img)
{
	struct retiring *r = ctx;
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
	struct retiring retiring = {&l->s, o->timelines, 0};
	gt_summary_init(&l->s, path, sym, o->pid, o->keep_sites, o->replay);
	if (o->stacks_hook)
		gt_summary_on_stacks(&l->s, o->stacks_hook, o->stacks_ctx);
	gt_model_on_retire(l->m, summarize, &retiring);
	struct gt_decoder *d = gt_decoder_open(path);
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
