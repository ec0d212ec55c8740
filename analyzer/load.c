/* Reads a trace into a model and its summary (load.h). */
#include "load.h"

#include "decoder.h"
#include "die.h"
#include "progress.h"

static void summary_add(void *ctx, struct gt_image *img)
{
	gt_summary_add(ctx, img);
}

void gt_load(struct gt_loaded *l, const char *path, struct gt_symbolizer *sym, long pid,
	     size_t keep_sites, int streaming, struct gt_phases *ph,
	     const struct gt_replay_input *replay)
{
	gt_hold_warnings(); /* until the trace proves readable */
	l->m = gt_model_new();
	/*
	 * Streaming summarizes each image as it is retired, keeping the sites
	 * it prints: memory follows the processes running at a time. --html
	 * and --folded draw from every stack, so they keep the model whole.
	 */
	if (streaming) {
		gt_summary_init(&l->s, path, sym, pid, keep_sites, replay);
		gt_model_on_retire(l->m, summary_add, &l->s);
		gt_model_no_timelines(l->m); /* the HTML page's alone, and it does not stream */
	}
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
	if (ph)
		gt_phases_finish(ph);
	if (streaming)
		gt_summary_finish(&l->s, l->m);
	else
		gt_summary_build(&l->s, l->m, path, sym, pid, replay);
	l->s.phases = ph;
	if (pid >= 0 && !l->s.n)
		gt_die("no process with pid %ld in '%s'", pid, path);
	gt_release_warnings();
}

void gt_load_release(struct gt_loaded *l)
{
	gt_summary_release(&l->s);
	gt_model_free(l->m);
}
