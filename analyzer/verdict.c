/*
 * Verdict computation. See verdict.h; thresholds and wording are
 * documented in docs/report.md.
 */
#include "verdict.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "die.h"

const char *const gt_verdict_class_names[3] = {"neither", "allocator-bound", "window-bound"};

/* git's defaults on 64-bit (packfile.c / environment.c). */
#define DEFAULT_WINDOW (1ull << 30)

static char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static char *fmt(const char *f, ...)
{
	va_list ap;
	va_start(ap, f);
	int n = vsnprintf(NULL, 0, f, ap);
	va_end(ap);
	char *s = gt_xmalloc((size_t)n + 1);
	va_start(ap, f);
	vsnprintf(s, (size_t)n + 1, f, ap);
	va_end(ap);
	return s;
}

static void push(char ***v, size_t *n, char *s)
{
	*v = gt_xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = s;
}

#define EVIDENCE(...) push(&v->evidence, &v->nevidence, fmt(__VA_ARGS__))
#define SUGGEST(...)  push(&v->suggestions, &v->nsuggestions, fmt(__VA_ARGS__))

void gt_format_bytes(char *buf, size_t size, uint64_t bytes)
{
	static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
	int u = 0;
	double x = (double)bytes;
	while (x >= 1024 && u < 5) {
		x /= 1024;
		u++;
	}
	if (u == 0 || x == (double)(uint64_t)x)
		snprintf(buf, size, "%.0f %s", x, units[u]);
	else
		snprintf(buf, size, "%.1f %s", x, units[u]);
}

/* Environment that makes the allocator look slower than it need be. */
static void inflating_env(struct gt_verdict *v, const struct gt_verdict_input *in)
{
	for (size_t i = 0; i < in->envc; i++) {
		const char *e = in->env[i];
		if (!strncmp(e, "MALLOC_PERTURB_=", 16) || !strncmp(e, "MALLOC_CHECK_=", 14) ||
		    !strncmp(e, "GLIBC_TUNABLES=", 15))
			EVIDENCE("%s is set: glibc does extra work per call, which inflates "
				 "the allocator share without showing what another allocator "
				 "would win",
				 e);
		else if (!strncmp(e, "LD_PRELOAD=", 11) &&
			 (strstr(e, "malloc") || strstr(e, "jemalloc") || strstr(e, "tcmalloc")))
			EVIDENCE("%s: another allocator is already preloaded", e);
	}
}

static void window_facts(struct gt_verdict *v, const struct gt_verdict_input *in)
{
	char a[32], b[32];
	if (in->pack_mmaps)
		EVIDENCE("%llu pack window maps of %llu distinct regions (thrash ratio %.1f)",
			 (unsigned long long)in->pack_mmaps, (unsigned long long)in->pack_regions,
			 in->pack_regions ? (double)in->pack_mmaps / (double)in->pack_regions : 0);
	if (in->window) {
		gt_format_bytes(a, sizeof(a), in->window);
		EVIDENCE("pack window size in effect: %s (core.packedGitWindowSize; default "
			 "1 GiB on 64-bit)",
			 a);
	}
	if (in->evictions) {
		gt_format_bytes(a, sizeof(a), in->limit_at_least);
		gt_format_bytes(b, sizeof(b), in->limit_below);
		EVIDENCE("%llu least-recently-used pack window unmaps: core.packedGitLimit is "
			 "at least %s and below %s (default 32 TiB on 64-bit, so it was lowered)",
			 (unsigned long long)in->evictions, a, b);
	}
}

/* The traced command, for suggestions to rerun it; a placeholder if unknown. */
static const char *command(const struct gt_verdict_input *in)
{
	return in->command && *in->command ? in->command : "COMMAND";
}

void gt_verdict_compute(struct gt_verdict *v, const struct gt_verdict_input *in)
{
	memset(v, 0, sizeof(*v));
	double denom = in->cpu_seconds;
	if (denom <= 0) {
		denom = in->wall_seconds;
		v->shares_of_wall = 1;
	}
	if (denom > 0) {
		v->allocator_share = in->allocator_seconds / denom;
		v->mmap_share = in->mmap_seconds / denom;
		/*
		 * A mapped window costs page faults after mmap returns, outside any
		 * call: kernel time. The bound counts all of it (it also holds the
		 * map calls' own kernel part, so it errs high, never low).
		 */
		double wb = (in->mmap_seconds + in->system_seconds) / denom;
		v->window_bound = wb < 1 ? wb : 1;
	}
	double as = v->allocator_share, ms = v->mmap_share, wb = v->window_bound;
	uint64_t pack_calls = in->pack_mmaps + in->pack_munmaps;
	double thrash = in->pack_regions ? (double)in->pack_mmaps / (double)in->pack_regions : 0;
	int pack_bulk = in->map_calls && (double)pack_calls >= GT_PACK_BULK_MIN * in->map_calls;

	if (as >= GT_ALLOCATOR_SHARE_MIN && as > ms)
		v->cls = GT_VERDICT_ALLOCATOR;
	else if (ms >= GT_MAP_SHARE_MIN && ms >= as && (pack_bulk || thrash >= GT_THRASH_HIGH))
		v->cls = GT_VERDICT_WINDOW;
	else
		v->cls = GT_VERDICT_NEITHER;

	const char *of =
		v->shares_of_wall ? "wall time (no CPU time: the process did not end)" : "CPU time";
	EVIDENCE("%.1f%% of %s inside the malloc family (%.3f s): a perfect allocator could "
		 "save at most that much; an upper bound, not a prediction",
		 100 * as, of, in->allocator_seconds);
	EVIDENCE("%.1f%% of %s inside mmap/munmap/mremap (%.3f s); with the kernel's time "
		 "outside them (%.3f s of system time, where page faults on mapped windows are "
		 "paid), a perfect window setting "
		 "could save at most %.1f%%",
		 100 * ms, of, in->mmap_seconds, in->system_seconds, 100 * wb);
	if (!v->shares_of_wall && in->tracer_seconds > 0)
		EVIDENCE("shares are of the program's own CPU time, %.3f s: the tracer's "
			 "estimated %.3f s are left out",
			 denom, in->tracer_seconds);
	if (in->capped_calls)
		EVIDENCE("%llu calls took implausibly long for the bytes they handled (a busy "
			 "machine: the thread waited for a CPU); %.3f s left out of the shares",
			 (unsigned long long)in->capped_calls, in->capped_seconds);
	if (in->allocations && denom > 0)
		EVIDENCE("%llu allocations (%.0f per second), %llu temporary",
			 (unsigned long long)in->allocations, (double)in->allocations / denom,
			 (unsigned long long)in->temporary);
	window_facts(v, in);
	inflating_env(v, in);
	if (in->loose_mmaps)
		EVIDENCE("%llu loose objects mapped: objects not in packs",
			 (unsigned long long)in->loose_mmaps);

	char a[32];
	switch (v->cls) {
	case GT_VERDICT_ALLOCATOR:
		for (size_t i = 0; i < in->ntop_sites && i < 3; i++)
			EVIDENCE("top churning site: %s", in->top_sites[i]);
		v->headline = fmt("allocator-bound: up to %.0f%% of the run is in malloc/free; "
				  "compare allocators with gittrace ab",
				  100 * as);
		SUGGEST("measure what another allocator wins, in interleaved runs: gittrace ab "
			"--alloc mimalloc --alloc jemalloc -- %s (Debian: libmimalloc2.0, "
			"libjemalloc2)",
			command(in));
		if (in->ntop_sites && strcmp(in->top_sites[0], "?") != 0)
			SUGGEST("reduce churn at the top sites, starting with %s",
				in->top_sites[0]);
		break;
	case GT_VERDICT_WINDOW:
		v->headline = fmt("window-bound: up to %.0f%% of the run is in mmap/munmap and "
				  "its page faults; unset core.packedGitLimit and "
				  "core.packedGitWindowSize",
				  100 * wb);
		if (in->evictions)
			SUGGEST("git config --unset core.packedGitLimit (default 32 TiB on "
				"64-bit), "
				"or set it above the size of your packs");
		if (in->window && in->window < DEFAULT_WINDOW) {
			gt_format_bytes(a, sizeof(a), in->window);
			SUGGEST("git config --unset core.packedGitWindowSize (now %s; default "
				"1g on 64-bit), or set core.packedGitWindowSize=1g",
				a);
		}
		SUGGEST("find which config file sets them: GIT_TRACE2=1 "
			"GIT_TRACE2_CONFIG_PARAMS='core.packed*' git version, or git config "
			"--show-origin --get-regexp '^core\\.packed'");
		SUGGEST("measure what git's defaults win, in interleaved runs: gittrace ab "
			"--variant 'defaults=-c core.packedGitWindowSize=1g -c "
			"core.packedGitLimit=32t' -- %s",
			command(in));
		break;
	case GT_VERDICT_NEITHER:
		v->headline = fmt("neither: no allocator or window change can win more than "
				  "%.0f%% / %.0f%% of this run",
				  100 * as, 100 * wb);
		SUGGEST("no allocator change can win more than %.1f%% and no window setting more "
			"than %.1f%% of this run: look elsewhere (I/O, hashing, deltas)",
			100 * as, 100 * wb);
		break;
	}
	if (in->loose_mmaps)
		SUGGEST("run git gc (or git maintenance run --task=gc) to pack loose objects; "
			"this is not a window problem");
	if (in->evictions && v->cls != GT_VERDICT_WINDOW)
		SUGGEST("core.packedGitLimit was lowered (LRU unmaps seen): git config --unset "
			"core.packedGitLimit unless that was deliberate");
}

void gt_verdict_release(struct gt_verdict *v)
{
	for (size_t i = 0; i < v->nevidence; i++)
		free(v->evidence[i]);
	for (size_t i = 0; i < v->nsuggestions; i++)
		free(v->suggestions[i]);
	free(v->evidence);
	free(v->suggestions);
	free(v->headline);
	memset(v, 0, sizeof(*v));
}
