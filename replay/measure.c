/* Rounds of replays of one image (see measure.h). */
#include "measure.h"

#include <stdlib.h>
#include <string.h>

#include "die.h"

/* The replay under allocator a must have made exactly the calls of the op stream. */
static void check_calls(const struct gt_replay_image *img, const struct gt_replay_allocator *a,
			const struct gt_replay_run *run)
{
	for (int fn = 0; fn < GT_REPLAY_FNS; fn++)
		if (run->calls[fn] != img->h.calls[fn])
			gt_die("the replay of pid %u under %s made %llu %s calls, not %llu",
			       img->pid, a->name, (unsigned long long)run->calls[fn],
			       gt_fn_names[fn], (unsigned long long)img->h.calls[fn]);
}

void gt_replay_measure(const struct gt_replay_image *img, const char *runner,
		       const struct gt_replay_allocator *allocs, size_t nalloc, size_t rounds,
		       struct gt_replay_result *res, unsigned *emulated)
{
	double *seconds = gt_xcalloc(nalloc * rounds, sizeof(*seconds));
	double *peaks = gt_xcalloc(nalloc * rounds, sizeof(*peaks));
	for (size_t r = 0; r < rounds; r++)
		for (size_t k = 0; k < nalloc; k++) {
			size_t a = (k + r) % nalloc;
			struct gt_replay_run run;
			gt_replay_run(runner, allocs[a].preload, img->ops_path, &run);
			check_calls(img, &allocs[a], &run);
			emulated[a] |= run.emulated;
			seconds[a * rounds + r] = run.seconds;
			peaks[a * rounds + r] = (double)run.peak_rss_bytes;
		}
	res->img = img;
	memcpy(res->calls, img->h.calls, sizeof(res->calls));
	res->est = gt_xcalloc(nalloc, sizeof(*res->est));
	for (size_t a = 0; a < nalloc; a++)
		gt_replay_estimate(&seconds[a * rounds], seconds, &peaks[a * rounds], rounds,
				   img->cpu_seconds, &res->est[a]);
	free(seconds);
	free(peaks);
}

void gt_replay_result_release(struct gt_replay_result *res)
{
	free(res->est);
	res->est = NULL;
}
