/* Reads a trace into a model and its summary (load.h). */
#include "load.h"

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
	l->m = gt_model_new();
	/*
	 * Streaming summarizes each image as it is retired, keeping the sites
	 * it prints: memory follows the processes running at a time. --html
	 * and --folded draw from every stack, so they keep the model whole.
	 */
	if (streaming) {
		gt_summary_init(&l->s, path, sym, pid, keep_sites, replay);
		gt_model_on_retire(l->m, summary_add, &l->s);
	}
	struct gt_reader *r = l->r = gt_reader_open(path);
	struct gt_progress progress;
	struct gt_block b;
	gt_progress_init(&progress);
	while (gt_reader_next(r, &b)) {
		if (ph)
			gt_phases_feed(ph, l->m, &b);
		else
			gt_model_feed(l->m, &b);
		gt_progress_update(&progress, gt_reader_pos(r), gt_reader_size(r),
				   gt_model_events(l->m));
	}
	gt_progress_done();
	gt_model_finish(l->m, gt_reader_torn(r));
	if (ph)
		gt_phases_finish(ph);
	if (streaming)
		gt_summary_finish(&l->s, l->m);
	else
		gt_summary_build(&l->s, l->m, path, sym, pid, replay);
	l->s.phases = ph;
	if (pid >= 0 && !l->s.n)
		gt_die("no process with pid %ld in '%s'", pid, path);
}

void gt_load_release(struct gt_loaded *l)
{
	gt_summary_release(&l->s);
	gt_reader_close(l->r);
	gt_model_free(l->m);
}
