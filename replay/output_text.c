/* gittrace-replay's text output (see output.h). */
#include <math.h>

#include "output.h"
#include "units.h"

static const char *const cpu_sources[] = {
	[GT_REPLAY_CPU_NONE] = "unknown: no END or USAGE record",
	[GT_REPLAY_CPU_END] = "from END, as gittrace-report's verdict takes it",
	[GT_REPLAY_CPU_USAGE] = "no END: the threads' last USAGE readings, a lower bound",
};

static void image_head(FILE *out, const struct gt_replay_result *r)
{
	const struct gt_replay_image *img = r->img;
	fprintf(out, "\npid %u:", img->pid);
	for (size_t a = 0; a < img->argc; a++)
		fprintf(out, " %s", img->argv[a]);
	fprintf(out, "\n  %llu calls in %u thread%s, CPU %.3f s (%s)\n",
		(unsigned long long)img->h.ops, img->h.threads, img->h.threads == 1 ? "" : "s",
		img->cpu_seconds, cpu_sources[img->cpu_source]);
	fputs("  replayed calls:", out);
	for (int fn = 0; fn < GT_REPLAY_FNS; fn++)
		fprintf(out, " %s=%llu", gt_fn_names[fn], (unsigned long long)r->calls[fn]);
	fputc('\n', out);
	if (img->h.ops != img->recorded_calls || img->untracked_reallocs || img->unknown_calls)
		fprintf(out,
			"  not replayed as recorded: %llu frees of blocks never seen allocated "
			"(left "
			"out), %llu reallocs of such blocks (replayed as new blocks), %llu calls "
			"of "
			"functions unknown to this reader (left out)\n",
			(unsigned long long)img->untracked_frees,
			(unsigned long long)img->untracked_reallocs,
			(unsigned long long)img->unknown_calls);
}

static void row(FILE *out, const char *name, const struct gt_replay_estimate *e, int system)
{
	char peak[32], ci[48] = "", change[32] = "unknown";
	gt_format_bytes(peak, sizeof(peak), e->peak_rss_bytes);
	if (!system && !isnan(e->ci_low))
		snprintf(ci, sizeof(ci), " (%.3f-%.3f)", e->ci_low, e->ci_high);
	if (!isnan(e->predicted_run_change))
		snprintf(change, sizeof(change), "%+.1f%%", 100 * e->predicted_run_change);
	fprintf(out, "  %-20s %10.4f s  %6.3f%-16s %12s  %s\n", name, e->seconds, e->ratio, ci,
		peak, change);
}

void gt_replay_print_text(FILE *out, const struct gt_replay_output *o)
{
	fprintf(out, "gittrace replay of %s: %zu image%s, %zu round%s\n", o->trace, o->n,
		o->n == 1 ? "" : "s", o->rounds, o->rounds == 1 ? "" : "s");
	for (size_t i = 0; i < o->n; i++) {
		const struct gt_replay_result *r = &o->results[i];
		image_head(out, r);
		fprintf(out, "  %-20s %12s  %-22s %12s  %s\n", "allocator", "replay",
			"ratio (95% CI)", "peak RSS", "predicted run change");
		for (size_t a = 0; a < o->nalloc; a++)
			row(out, o->allocs[a].name, &r->est[a], a == 0);
	}
}
