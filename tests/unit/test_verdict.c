/*
 * Unit test: the verdict on recorded-style facts, no trace and no clock:
 * the predicted savings per remedy and their intervals, the class at and
 * around GT_GAIN_CLASS_MIN, a headline that never contradicts the
 * suggestions, and suggestions that name the git settings.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../check.h"
#include "verdict.h"

static int any(char **v, size_t n, const char *needle)
{
	for (size_t i = 0; i < n; i++)
		if (strstr(v[i], needle))
			return 1;
	return 0;
}

/* 10 s of CPU; the allocator's slower calls and the thrash cost, in seconds. */
static void facts(struct gt_verdict_input *in, double alloc_usual, double again_calls,
		  double again_system)
{
	memset(in, 0, sizeof(*in));
	in->cpu_seconds = 10;
	in->system_seconds = 2;
	in->allocator_seconds = 3;
	in->allocator_excess_usual = alloc_usual;
	in->allocator_excess_slow = alloc_usual / 2;
	in->mmap_seconds = again_calls + 0.01;
	in->limit_below = UINT64_MAX;
	if (again_calls > 0) {
		in->has_window_cost = 1;
		in->evictions = 1000;
		in->pack_mmaps = 1010;
		in->pack_munmaps = 1000;
		in->pack_regions = 40;
		in->again_calls_seconds = again_calls;
		in->again_system_seconds = again_system;
		in->again_any_system_seconds = again_system * 1.5;
		in->window = 64 << 10;
		in->limit_at_least = 256 << 10;
		in->limit_below = 320 << 10;
	}
}

static enum gt_verdict_class classify(double alloc_usual, double again_calls, double again_system)
{
	struct gt_verdict_input in;
	struct gt_verdict v;
	facts(&in, alloc_usual, again_calls, again_system);
	gt_verdict_compute(&v, &in);
	enum gt_verdict_class c = v.cls;
	gt_verdict_release(&v);
	return c;
}

int main(void)
{
	struct gt_verdict_input in;
	struct gt_verdict v;

	/* The class is the larger predicted saving, from GT_GAIN_CLASS_MIN (10%) on. */
	CHECK(classify(1.0, 0, 0) == GT_VERDICT_ALLOCATOR);
	CHECK(classify(0.99, 0, 0) == GT_VERDICT_NEITHER);
	CHECK(classify(0.2, 0.5, 1.0) == GT_VERDICT_WINDOW);
	CHECK(classify(0.2, 0.5, 0.99) == GT_VERDICT_NEITHER);
	/* The calls alone are the least the windows' saving can be. */
	CHECK(classify(0.2, 1.0, 0.5) == GT_VERDICT_WINDOW);
	CHECK(classify(2.0, 0.5, 1.0) == GT_VERDICT_ALLOCATOR);
	CHECK(classify(1.4, 0.5, 1.5) == GT_VERDICT_WINDOW);
	/*
	 * The case that went wrong: more time inside malloc than inside map
	 * calls, but the allocator's calls are all usual ones, and evictions
	 * fault windows in again and again. Time inside no longer decides.
	 */
	CHECK(classify(0.1, 0.3, 1.2) == GT_VERDICT_WINDOW);
	/*
	 * Just below the minimum, the "neither" headline does not round a
	 * saving up to it: 9.9%, not "about 10%" beside "no remedy is
	 * predicted to save 10%".
	 */
	facts(&in, 0.99, 0, 0);
	gt_verdict_compute(&v, &in);
	CHECK(strstr(v.headline, "another allocator about 9.9%)") != NULL);
	gt_verdict_release(&v);
	facts(&in, 0.2, 0.5, 0.99);
	gt_verdict_compute(&v, &in);
	CHECK(v.cls == GT_VERDICT_NEITHER);
	CHECK(strstr(v.headline, "default windows about 9.9%, another allocator about 2%") != NULL);
	gt_verdict_release(&v);

	/*
	 * No call seen (a trace stopped at its start): no advice to look
	 * elsewhere, which would be a judgement on no evidence.
	 */
	memset(&in, 0, sizeof(in));
	in.wall_seconds = 1;
	in.unended = 1;
	in.limit_below = UINT64_MAX;
	gt_verdict_compute(&v, &in);
	CHECK(v.cls == GT_VERDICT_NEITHER);
	CHECK(strstr(v.headline, "no allocation or map call to judge by") != NULL);
	CHECK(strstr(v.headline, "cut short") != NULL);
	CHECK(!strstr(v.headline, "look elsewhere"));
	CHECK(any(v.suggestions, v.nsuggestions, "gittrace --confirm"));
	gt_verdict_release(&v);
	in.allocations = 1;
	gt_verdict_compute(&v, &in);
	CHECK(!strstr(v.headline, "judge by"));
	gt_verdict_release(&v);

	/* Predictions and their intervals, as shares of the CPU time. */
	facts(&in, 1.0, 0.5, 1.0);
	gt_verdict_compute(&v, &in);
	CHECK(v.window.applies && v.allocator.applies);
	CHECK(v.window.low == 0.05 && v.window.gain == 0.1 && v.window.high == 0.15);
	CHECK(v.allocator.low == 0.05 && v.allocator.gain == 0.1 && v.allocator.high == 0.3);
	CHECK(v.cls == GT_VERDICT_WINDOW);
	CHECK(strstr(v.headline, "about 10% of the run (5–15%)") != NULL);
	CHECK(any(v.suggestions, v.nsuggestions, "git config --unset core.packedGitLimit"));
	CHECK(any(v.suggestions, v.nsuggestions, "core.packedGitWindowSize=1g"));
	CHECK(any(v.suggestions, v.nsuggestions, "GIT_TRACE2_CONFIG_PARAMS='core.packed*'"));
	CHECK(any(v.suggestions, v.nsuggestions, "gittrace --confirm"));
	CHECK(any(v.evidence, v.nevidence, "at least 256 KiB and below 320 KiB"));
	/*
	 * The headline names the settings the run saw lowered, not both: a
	 * limit alone, windows of git's default size, is one to unset.
	 */
	CHECK(strstr(v.headline, "; unset core.packedGitLimit and core.packedGitWindowSize") !=
	      NULL);
	gt_verdict_release(&v);
	facts(&in, 1.0, 0.5, 1.0);
	in.window = 1ull << 30;
	gt_verdict_compute(&v, &in);
	CHECK(v.cls == GT_VERDICT_WINDOW);
	CHECK(strstr(v.headline, "; unset core.packedGitLimit") != NULL);
	CHECK(!strstr(v.headline, "packedGitWindowSize"));
	gt_verdict_release(&v);
	facts(&in, 1.0, 0.5, 1.0);
	in.evictions = 0;
	gt_verdict_compute(&v, &in);
	CHECK(v.cls == GT_VERDICT_WINDOW);
	CHECK(strstr(v.headline, "; unset core.packedGitWindowSize") != NULL);
	CHECK(!strstr(v.headline, "packedGitLimit"));
	gt_verdict_release(&v);
	/* Regions mapped again with neither lowered (no eviction seen): both. */
	facts(&in, 1.0, 0.5, 1.0);
	in.evictions = 0;
	in.window = 1ull << 30;
	gt_verdict_compute(&v, &in);
	CHECK(strstr(v.headline, "; unset core.packedGitLimit and core.packedGitWindowSize") !=
	      NULL);
	gt_verdict_release(&v);
	facts(&in, 1.0, 0.5, 1.0);
	/* Bounds that read alike rounded are written in bytes. */
	in.limit_at_least = 1 << 20;
	in.limit_below = 1071934;
	gt_verdict_compute(&v, &in);
	CHECK(any(v.evidence, v.nevidence, "at least 1048576 bytes and below 1071934 bytes"));
	in.limit_at_least = 256 << 10;
	in.limit_below = 320 << 10;
	CHECK(any(v.evidence, v.nevidence, "window size in effect: 64 KiB"));
	CHECK(any(v.evidence, v.nevidence, "time inside, an estimate"));
	gt_verdict_release(&v);

	/*
	 * No window remedy makes the class, but the limit was lowered: the
	 * headline says what that costs instead of "look elsewhere", and the
	 * suggestions still say how to undo it.
	 */
	facts(&in, 0.2, 0.3, 0.6);
	gt_verdict_compute(&v, &in);
	CHECK(v.cls == GT_VERDICT_NEITHER);
	CHECK(strstr(v.headline, "look elsewhere") == NULL);
	CHECK(strstr(v.headline, "core.packedGitLimit was lowered (1000 evictions), which costs "
				 "about 6% (3–9%)") != NULL);
	CHECK(any(v.suggestions, v.nsuggestions, "git config --unset core.packedGitLimit"));
	CHECK(any(v.suggestions, v.nsuggestions, "above the size of your packs"));
	gt_verdict_release(&v);

	/* With window advice, the suggestion to keep a limit names it. */
	struct gt_window_advice advice = {.raise = 1,
					  .limit = 2 << 20,
					  .window = 64 << 10,
					  .limit_value = "2m",
					  .window_value = "64k",
					  .git_config = "-c core.packedGitLimit=2m "
							"-c core.packedGitWindowSize=64k"};
	in.window_advice = &advice;
	gt_verdict_compute(&v, &in);
	CHECK(any(v.suggestions, v.nsuggestions, "git config --unset core.packedGitLimit"));
	CHECK(any(v.suggestions, v.nsuggestions,
		  "(window advice): git config --replace-all core.packedGitLimit 2m with "
		  "core.packedGitWindowSize 64k, or git -c core.packedGitLimit=2m -c "
		  "core.packedGitWindowSize=64k for one command"));
	CHECK(!any(v.suggestions, v.nsuggestions, "above the size of your packs"));
	gt_verdict_release(&v);
	/* An advised limit of 1024 windows or more: not that limit alone. */
	advice.limit = 842ull << 20;
	strcpy(advice.limit_value, "842m");
	advice.many_windows = 1;
	gt_verdict_compute(&v, &in);
	CHECK(any(v.suggestions, v.nsuggestions,
		  "git config --unset core.packedGitLimit (default 32 TiB on 64-bit), but not a "
		  "higher limit alone: one at which every window the run mapped stays mapped "
		  "(842m) holds 13472 windows of 64k"));
	CHECK(!any(v.suggestions, v.nsuggestions, "(window advice)"));
	gt_verdict_release(&v);
	advice.many_windows = 0;

	/*
	 * The tracer's estimate is left out of the CPU time; where that left
	 * less than the time inside calls (threads that waited for its lock),
	 * the evidence says the shares rest on that time instead.
	 */
	facts(&in, 0.2, 0, 0);
	in.tracer_seconds = 4;
	gt_verdict_compute(&v, &in);
	CHECK(any(v.evidence, v.nevidence,
		  "shares are of the program's own CPU time, 10.000 s: the tracer's estimated "
		  "4.000 s are left out"));
	CHECK(!any(v.evidence, v.nevidence, "never below the time measured inside"));
	gt_verdict_release(&v);
	in.cpu_seconds = in.allocator_seconds + in.mmap_seconds;
	in.tracer_seconds = 12;
	in.inside_floors = 1;
	gt_verdict_compute(&v, &in);
	CHECK(any(v.evidence, v.nevidence,
		  "shares are of the program's own CPU time, 3.010 s: the tracer's estimated "
		  "12.000 s are left out, but never below the time measured inside the calls, "
		  "as in 1 process (the estimate also counts"));
	CHECK(v.allocator_share > 0.99);
	gt_verdict_release(&v);
	/* Without a tracer estimate (a 1.0 trace), time inside can still pass the CPU time. */
	in.tracer_seconds = 0;
	in.inside_floors = 2;
	gt_verdict_compute(&v, &in);
	CHECK(any(v.evidence, v.nevidence,
		  "shares are of the program's own CPU time, 3.010 s, but never below the time "
		  "measured inside the calls (wall-clock time), as in 2 processes"));
	CHECK(!any(v.evidence, v.nevidence, "the tracer's estimated"));
	gt_verdict_release(&v);

	/* Nothing points at windows: no window prediction, "look elsewhere". */
	facts(&in, 0.2, 0, 0);
	gt_verdict_compute(&v, &in);
	CHECK(!v.window.applies && v.window.gain == 0 && v.window.high == 0);
	CHECK(v.cls == GT_VERDICT_NEITHER && strstr(v.headline, "look elsewhere") != NULL);
	CHECK(!any(v.suggestions, v.nsuggestions, "core.packedGitLimit"));
	gt_verdict_release(&v);

	/* Kernel time below what getrusage resolves (ticks) counts in the high end only. */
	facts(&in, 0.001, 0.005, 0.015);
	in.cpu_seconds = 0.1;
	in.system_seconds = 0.02;
	gt_verdict_compute(&v, &in);
	CHECK(fabs(v.window.low - 0.05) < 1e-9 && v.window.gain == v.window.low);
	CHECK(fabs(v.window.high - 0.225) < 1e-9);
	CHECK(v.cls == GT_VERDICT_NEITHER);
	CHECK(any(v.evidence, v.nevidence, "kernel time this short is a count of clock ticks"));
	gt_verdict_release(&v);
	/*
	 * Above it, the reading counts in proportion up to twice that: one
	 * tick either side of 20 ms moves the estimate by about a tick, not
	 * from the calls' 5% to the reading's 20% (a class flipped between
	 * traces of one command).
	 */
	facts(&in, 0.001, 0.005, 0.02);
	in.cpu_seconds = 0.1;
	in.system_seconds = 0.04;
	gt_verdict_compute(&v, &in);
	CHECK(fabs(v.window.gain - 0.05) < 1e-9 && v.cls == GT_VERDICT_NEITHER);
	gt_verdict_release(&v);
	facts(&in, 0.001, 0.005, 0.024);
	in.cpu_seconds = 0.1;
	in.system_seconds = 0.04;
	gt_verdict_compute(&v, &in);
	/* 5% + (24 - 20) / 20 of the 19 ms the reading adds to the calls */
	CHECK(fabs(v.window.gain - 0.088) < 1e-9 && v.cls == GT_VERDICT_NEITHER);
	CHECK(fabs(v.window.high - 0.36) < 1e-9);
	CHECK(any(v.evidence, v.nevidence, "the prediction counts it in part"));
	gt_verdict_release(&v);
	facts(&in, 0.001, 0.005, 0.03);
	in.cpu_seconds = 0.1;
	in.system_seconds = 0.04;
	gt_verdict_compute(&v, &in);
	/* 5% + half of 25 ms */
	CHECK(fabs(v.window.gain - 0.175) < 1e-9 && v.cls == GT_VERDICT_WINDOW);
	gt_verdict_release(&v);
	facts(&in, 0.001, 0.005, 0.04);
	in.cpu_seconds = 0.1;
	in.system_seconds = 0.05;
	gt_verdict_compute(&v, &in);
	CHECK(fabs(v.window.gain - 0.4) < 1e-9 && v.cls == GT_VERDICT_WINDOW);
	CHECK(!any(v.evidence, v.nevidence, "clock ticks"));
	gt_verdict_release(&v);

	/* A trace before format 1.2: no readings, all kernel time is the high end. */
	facts(&in, 0.2, 0.5, 1.0);
	in.has_window_cost = 0;
	gt_verdict_compute(&v, &in);
	CHECK(v.window.low == 0.05 && v.window.gain == 0.05 && v.window.high == 0.25);
	gt_verdict_release(&v);

	/* Environment that inflates the allocator's time, loose objects. */
	const char *env[] = {"MALLOC_PERTURB_=165", "LD_PRELOAD=/usr/lib/libjemalloc.so.2"};
	facts(&in, 1.6, 0, 0);
	in.env = env;
	in.envc = 1;
	in.loose_mmaps = 3;
	in.ntop_sites = 1;
	const char *sites[] = {"create_delta"};
	in.top_sites = sites;
	gt_verdict_compute(&v, &in);
	CHECK(v.cls == GT_VERDICT_ALLOCATOR);
	/* glibc's debugging work: halfway from the slower calls to all the time inside. */
	CHECK(strstr(v.headline, "about 23% of the run (8–30%)") != NULL);
	CHECK(any(v.evidence, v.nevidence, "MALLOC_PERTURB_=165 is set"));
	CHECK(!any(v.evidence, v.nevidence, "another allocator is already preloaded"));
	CHECK(any(v.evidence, v.nevidence, "the time glibc's slower calls"));
	gt_verdict_release(&v);
	/* Another allocator serves the calls: glibc's settings do nothing. */
	in.envc = 2;
	gt_verdict_compute(&v, &in);
	CHECK(strstr(v.headline, "about 16% of the run (8–30%)") != NULL);
	CHECK(!any(v.evidence, v.nevidence, "MALLOC_PERTURB_=165 is set"));
	CHECK(any(v.evidence, v.nevidence, "another allocator is already preloaded"));
	CHECK(any(v.evidence, v.nevidence, "the time the preloaded allocator's slower calls"));
	CHECK(!any(v.evidence, v.nevidence, "glibc's slower calls"));
	gt_verdict_release(&v);
	/* Tunables that change how glibc allocates, and a perturb of 0, are no debugging. */
	const char *tuned[] = {"GLIBC_TUNABLES=glibc.malloc.arena_max=2:glibc.malloc.perturb=0",
			       "MALLOC_PERTURB_=0"};
	in.env = tuned;
	gt_verdict_compute(&v, &in);
	CHECK(strstr(v.headline, "about 16% of the run (8–30%)") != NULL);
	CHECK(!any(v.evidence, v.nevidence, "is set: glibc does extra work"));
	gt_verdict_release(&v);
	/* git's tests: checks on, with glibc's debugging library (no other allocator). */
	const char *checked[] = {"LD_PRELOAD=libc_malloc_debug.so.0",
				 "GLIBC_TUNABLES=glibc.malloc.check=1:glibc.malloc.perturb=165"};
	in.env = checked;
	gt_verdict_compute(&v, &in);
	CHECK(strstr(v.headline, "about 23% of the run (8–30%)") != NULL);
	CHECK(any(v.evidence, v.nevidence, "GLIBC_TUNABLES=glibc.malloc.check=1"));
	CHECK(!any(v.evidence, v.nevidence, "another allocator is already preloaded"));
	gt_verdict_release(&v);
	/* The checks asked without that library: glibc 2.34 and later do none. */
	const char *unchecked[] = {"MALLOC_CHECK_=3", "GLIBC_TUNABLES=glibc.malloc.check=1"};
	in.env = unchecked;
	gt_verdict_compute(&v, &in);
	CHECK(strstr(v.headline, "about 16% of the run (8–30%)") != NULL);
	CHECK(!any(v.evidence, v.nevidence, "is set: glibc does extra work"));
	CHECK(any(v.evidence, v.nevidence,
		  "MALLOC_CHECK_=3 is set, but glibc 2.34 and later check only with "
		  "libc_malloc_debug.so preloaded"));
	gt_verdict_release(&v);
	/* A perturb beside the checks, without the library: the perturb counts. */
	const char *perturbed[] = {"GLIBC_TUNABLES=glibc.malloc.check=1:glibc.malloc.perturb=165"};
	in.env = perturbed;
	in.envc = 1;
	gt_verdict_compute(&v, &in);
	CHECK(strstr(v.headline, "about 23% of the run (8–30%)") != NULL);
	gt_verdict_release(&v);
	in.env = env;
	in.envc = 1;
	gt_verdict_compute(&v, &in);
	CHECK(any(v.suggestions, v.nsuggestions, "starting with create_delta"));
	/* 3 loose objects: not worth a gc (one made a diff of two blobs slower). */
	CHECK(!any(v.suggestions, v.nsuggestions, "git gc"));
	gt_verdict_release(&v);
	in.loose_mmaps = GT_LOOSE_MANY;
	gt_verdict_compute(&v, &in);
	CHECK(any(v.suggestions, v.nsuggestions, "to pack the 1000 loose objects read"));
	/* The headline points at them too, which the trace does not price. */
	CHECK(v.cls == GT_VERDICT_ALLOCATOR);
	CHECK(strstr(v.headline, "; but 1000 loose objects were read: packing them (git gc)") !=
	      NULL);
	gt_verdict_release(&v);
	/* A neither headline: not "look elsewhere" beside the suggestion to pack them. */
	in.envc = 0;
	in.allocator_excess_usual = 0.5;
	gt_verdict_compute(&v, &in);
	CHECK(v.cls == GT_VERDICT_NEITHER);
	CHECK(strstr(v.headline, "; but 1000 loose objects were read: packing them (git gc)") !=
	      NULL);
	CHECK(!strstr(v.headline, "look elsewhere"));
	gt_verdict_release(&v);
	/* The same loose objects mapped by a run that packs them (git gc): no advice to run it. */
	in.packer = "gc";
	gt_verdict_compute(&v, &in);
	CHECK(!any(v.suggestions, v.nsuggestions, "git gc"));
	CHECK(any(v.evidence, v.nevidence,
		  "1000 loose objects mapped: objects not in packs, which the "
		  "run's git gc packs"));
	CHECK(strstr(v.headline, "look elsewhere") != NULL);
	gt_verdict_release(&v);
	in.envc = 1;
	in.allocator_excess_usual = 1.6;
	in.loose_mmaps = 3;

	/*
	 * Many small windows mapped at once, none evicted (a lowered
	 * core.packedGitWindowSize alone; cat-file on git.git, BENCHMARKS.md):
	 * git's search of them is unseen. No saving is predicted, but the
	 * high end is all the time outside the allocator, no bound is claimed,
	 * and the headline says to measure the windows, not to look elsewhere.
	 */
	facts(&in, 0.1, 0, 0);
	in.window = 8 << 10;
	in.pack_mmaps = in.pack_regions = 44415;
	in.peak_pack_windows = 44414;
	gt_verdict_compute(&v, &in);
	CHECK(v.cls == GT_VERDICT_NEITHER);
	CHECK(v.window_search);
	CHECK(v.window.gain == 0 && v.window.high == 0.7);
	CHECK(v.window_bound == v.window.high);
	CHECK(strstr(v.headline, "about 44414 windows of 8 KiB were mapped at once") != NULL);
	CHECK(strstr(v.headline, "default windows unseen, up to ") != NULL);
	CHECK(strstr(v.headline, "default windows about 0%") == NULL);
	CHECK(strstr(v.headline, "gittrace --confirm") != NULL);
	CHECK(strstr(v.headline, "look elsewhere") == NULL);
	CHECK(any(v.evidence, v.nevidence, "use_pack"));
	CHECK(!any(v.evidence, v.nevidence, "no window setting can save more"));
	CHECK(any(v.suggestions, v.nsuggestions, "core.packedGitWindowSize"));
	gt_verdict_release(&v);
	/*
	 * 152 windows of 4 MiB (cat-file --batch-all-objects --batch-check on
	 * git.git: 1.15× slower than at defaults, the kernel's time bounding
	 * the saving at 4%): the search is unseen there too.
	 */
	in.window = 4 << 20;
	in.peak_pack_windows = 152;
	gt_verdict_compute(&v, &in);
	CHECK(v.window_search);
	CHECK(!any(v.evidence, v.nevidence, "no window setting can save more"));
	CHECK(strstr(v.headline, "about 152 windows of 4 MiB were mapped at once") != NULL);
	gt_verdict_release(&v);
	in.window = 8 << 10;
	/* Below GT_WINDOW_SEARCH_MANY windows: the bound of the map calls and kernel time holds. */
	in.peak_pack_windows = GT_WINDOW_SEARCH_MANY - 1;
	gt_verdict_compute(&v, &in);
	CHECK(!v.window_search);
	CHECK(v.window_bound < 0.25);
	CHECK(any(v.evidence, v.nevidence, "no window setting can save more than"));
	CHECK(strstr(v.headline, "look elsewhere") != NULL);
	gt_verdict_release(&v);
	/*
	 * Kernel time as large as the program's own CPU time (it holds the
	 * tracer's writes, which the basis leaves out): no bound, not "can
	 * save no more than 100.0%".
	 */
	double system = in.system_seconds;
	in.system_seconds = in.cpu_seconds;
	gt_verdict_compute(&v, &in);
	CHECK(v.window_bound == 1);
	CHECK(!any(v.evidence, v.nevidence, "can save more than"));
	CHECK(any(v.evidence, v.nevidence, "the trace sets no bound on what a window setting"));
	gt_verdict_release(&v);
	in.system_seconds = system;
	/*
	 * A lowered limit too: the headline gives what the trace saw it cost
	 * (not the widened high end, which is the unseen search's) and then
	 * the search.
	 */
	facts(&in, 0.1, 0.2, 0.3);
	in.peak_pack_windows = 5000;
	gt_verdict_compute(&v, &in);
	CHECK(v.cls == GT_VERDICT_NEITHER && v.window_search && v.window.high == 0.7);
	CHECK(strstr(v.headline, "1000 evictions), which costs about 3% (2–") != NULL);
	CHECK(strstr(v.headline, "(2–70%)") == NULL);
	CHECK(strstr(v.headline, "about 5000 windows of 64 KiB were mapped at once") != NULL);
	gt_verdict_release(&v);
	/*
	 * A process that did not end (killed): no CPU and no kernel time. The
	 * shares are of wall time and say so; no bound on windows is claimed.
	 */
	facts(&in, 0.1, 0, 0);
	in.cpu_seconds = in.system_seconds = 0;
	in.wall_seconds = 10;
	in.unended = 1;
	in.pack_mmaps = in.pack_regions = 10;
	gt_verdict_compute(&v, &in);
	CHECK(v.shares_of_wall && isnan(v.window_bound));
	CHECK(any(v.evidence, v.nevidence, "30.0% of wall time (no CPU time: the process did"));
	CHECK(any(v.evidence, v.nevidence, "the process that did not end is unknown"));
	CHECK(!any(v.evidence, v.nevidence, "no window setting can save"));
	gt_verdict_release(&v);
	/* A tree where one of its processes did not end: CPU time, but not all of it. */
	in.cpu_seconds = 10;
	in.system_seconds = 2;
	gt_verdict_compute(&v, &in);
	CHECK(!v.shares_of_wall && isnan(v.window_bound));
	CHECK(any(v.evidence, v.nevidence,
		  "30.0% of CPU time (wall time for the 1 process that did not end) inside"));
	gt_verdict_release(&v);
	/*
	 * The command gave git its window size with -c, the lowered limit
	 * comes from a config file: drop the one, unset and look for the other.
	 */
	facts(&in, 0.01, 3, 1);
	in.window_settings = "-c core.packedgitwindowsize=64k";
	gt_verdict_compute(&v, &in);
	CHECK(v.cls == GT_VERDICT_WINDOW);
	CHECK(strstr(v.headline, "drop the command's -c core.packedgitwindowsize=64k; unset "
				 "core.packedGitLimit") != NULL);
	CHECK(any(v.suggestions, v.nsuggestions, "git config --unset core.packedGitLimit"));
	CHECK(!any(v.suggestions, v.nsuggestions, "git config --unset core.packedGitWindowSize"));
	CHECK(any(v.suggestions, v.nsuggestions, "find which config file"));
	gt_verdict_release(&v);
	/* Both given: nothing to look for in config files. */
	in.window_settings = "-c core.packedGitWindowSize=64k -c core.packedGitLimit=256k";
	gt_verdict_compute(&v, &in);
	CHECK(strstr(v.headline, "drop the command's -c core.packedGitWindowSize=64k -c "
				 "core.packedGitLimit=256k") != NULL);
	CHECK(strstr(v.headline, "unset") == NULL);
	CHECK(!any(v.suggestions, v.nsuggestions, "git config"));
	CHECK(!any(v.suggestions, v.nsuggestions, "config file"));
	/* The limit given, not bounds from the evictions: git maps past it while no window can go.
	 */
	CHECK(any(v.evidence, v.nevidence,
		  "core.packedGitLimit was lowered on the command line (-c "
		  "core.packedGitWindowSize=64k -c core.packedGitLimit=256k;"));
	CHECK(!any(v.evidence, v.nevidence, "at least 256 KiB"));
	gt_verdict_release(&v);
	/* No pack window mapped: no window setting changes the run, whatever the kernel's time. */
	facts(&in, 0.1, 0, 0);
	gt_verdict_compute(&v, &in);
	CHECK(v.window_bound == 0);
	CHECK(any(v.evidence, v.nevidence, "no pack window was mapped"));
	CHECK(!any(v.evidence, v.nevidence, "no window setting can save more"));
	gt_verdict_release(&v);

	/* The command's repository options reach every git command of the advice. */
	facts(&in, 0.1, 0.5, 1.5);
	in.git = "git -C 'a b.git'";
	gt_verdict_compute(&v, &in);
	CHECK(any(v.suggestions, v.nsuggestions,
		  "git -C 'a b.git' config --unset core.packedGitLimit"));
	CHECK(any(v.suggestions, v.nsuggestions, "git -C 'a b.git' config --show-origin"));
	for (size_t i = 0; i < v.nsuggestions; i++)
		CHECK(!strstr(v.suggestions[i], "git config"));
	gt_verdict_release(&v);

	/* CPUs shared with other work: from GT_SHARED_CPU_SWITCHES_PER_S a CPU second. */
	facts(&in, 0.5, 0, 0); /* 10 s of CPU */
	in.involuntary_switches = 10 * GT_SHARED_CPU_SWITCHES_PER_S - 1;
	gt_verdict_compute(&v, &in);
	CHECK(!v.cpus_shared && !any(v.evidence, v.nevidence, "for other work"));
	gt_verdict_release(&v);
	in.involuntary_switches = 10 * GT_SHARED_CPU_SWITCHES_PER_S;
	gt_verdict_compute(&v, &in);
	CHECK(v.cpus_shared);
	char shared[128];
	snprintf(shared, sizeof(shared),
		 "the kernel switched the program out for other work %d times (%d a second of "
		 "CPU time)",
		 10 * GT_SHARED_CPU_SWITCHES_PER_S, GT_SHARED_CPU_SWITCHES_PER_S);
	CHECK(any(v.evidence, v.nevidence, shared));
	gt_verdict_release(&v);
	/* A short run: a few switches are no measure of the machine. */
	in.cpu_seconds = 0.01;
	in.involuntary_switches = GT_SHARED_CPU_SWITCHES_MIN - 1;
	gt_verdict_compute(&v, &in);
	CHECK(!v.cpus_shared);
	gt_verdict_release(&v);
	/* No CPU time known (no process ended): no rate. */
	in.cpu_seconds = 0;
	in.involuntary_switches = 1000;
	gt_verdict_compute(&v, &in);
	CHECK(!v.cpus_shared);
	gt_verdict_release(&v);

	/*
	 * Heap pages faulted in again (git blame under glibc: 78,000 faults
	 * beyond the heap's peak, 0.19 s of kernel time, 12–16% measured with
	 * mimalloc) count in the allocator's saving, point and high end: no
	 * call's time holds them. The low end stays the slow calls'.
	 */
	facts(&in, 0.1, 0, 0); /* 1% from slower calls */
	in.heap_refaults = 80000;
	in.refault_seconds = in.refault_point_seconds = 1.4;
	gt_verdict_compute(&v, &in);
	CHECK(v.cls == GT_VERDICT_ALLOCATOR);
	CHECK_NEAR(v.allocator.gain, 0.15, 1e-9);
	CHECK_NEAR(v.allocator.low, 0.005, 1e-9);
	CHECK_NEAR(v.allocator.high, 0.44, 1e-9);
	CHECK(any(v.evidence, v.nevidence, "80000 page faults beyond what the run needed"));
	CHECK(any(v.evidence, v.nevidence, "(glibc trims its heap and unmaps large blocks)"));
	gt_verdict_release(&v);
	/*
	 * Refaults less than half of the faults (git clone: 7,480): the run's
	 * kernel time per fault holds file I/O too (18 µs a fault), and they
	 * count in the high end only.
	 */
	in.refault_point_seconds = 0;
	gt_verdict_compute(&v, &in);
	CHECK(v.cls == GT_VERDICT_NEITHER);
	CHECK_NEAR(v.allocator.gain, 0.01, 1e-9);
	CHECK_NEAR(v.allocator.high, 0.44, 1e-9);
	CHECK(any(v.evidence, v.nevidence, "in the prediction's high end only"));
	gt_verdict_release(&v);
	/* Below a thousandth of the run: counted, not said. */
	in.refault_seconds = in.refault_point_seconds = 0.0099;
	gt_verdict_compute(&v, &in);
	CHECK(v.cls == GT_VERDICT_NEITHER);
	CHECK(!any(v.evidence, v.nevidence, "page faults beyond"));
	gt_verdict_release(&v);

	/*
	 * The refaults' price, from recorded facts of two runs on git.git
	 * (verdict.h, GT_REFAULT_CYCLES), a page cycle of 1.35 µs at the
	 * run's start. blame of sequencer.c: 76,835 refaults of 110,000
	 * faults in 0.40 s of system time (3.6 µs a fault): priced at 2.7 µs,
	 * 0.207 s of its 1.37 s, allocator-bound (mimalloc saved 12–16%).
	 */
	facts(&in, 0.001, 0, 0);
	in.cpu_seconds = 1.37;
	in.allocator_seconds = 0.05;
	in.system_seconds = 0.40;
	in.heap_refaults = 76835;
	in.page_cycle_seconds = 1.35e-6;
	gt_verdict_price_refaults(&in, 110000);
	CHECK_NEAR(in.refault_point_seconds, 76835 * 2.7e-6, 1e-9);
	CHECK_NEAR(in.refault_seconds, 0.40 * 76835 / 110000, 1e-9);
	gt_verdict_compute(&v, &in);
	CHECK(v.cls == GT_VERDICT_ALLOCATOR);
	CHECK(any(v.evidence, v.nevidence, "at 3 µs a refault"));
	CHECK(any(v.evidence, v.nevidence, "what giving a page back and writing it again took"));
	gt_verdict_release(&v);
	/*
	 * log -p over 24,000 loose objects: 65,124 refaults of 106,000 faults
	 * in 0.60 s of system time, most of it opening and mapping the
	 * objects (5.7 µs a fault). Priced at the system time a fault, 14.8%
	 * and allocator-bound; mimalloc saved 2–7%. At 2.7 µs: neither.
	 */
	facts(&in, 0.001, 0, 0);
	in.cpu_seconds = 2.68;
	in.allocator_seconds = 0.1;
	in.system_seconds = 0.60;
	in.heap_refaults = 65124;
	in.page_cycle_seconds = 1.35e-6;
	gt_verdict_price_refaults(&in, 106000);
	CHECK_NEAR(in.refault_point_seconds, 65124 * 2.7e-6, 1e-9);
	gt_verdict_compute(&v, &in);
	CHECK(v.cls == GT_VERDICT_NEITHER);
	CHECK(v.allocator.gain > 0.05 && v.allocator.gain < 0.08);
	/* the high end: all the time inside, and the refaults at the system time a fault */
	CHECK_NEAR(v.allocator.high, (0.1 + 0.60 * 65124 / 106000) / 2.68, 1e-9);
	gt_verdict_release(&v);
	/* The system time a fault is the most a refault costs, whatever the cycle. */
	in.page_cycle_seconds = 10e-6;
	gt_verdict_price_refaults(&in, 106000);
	CHECK_NEAR(in.refault_point_seconds, in.refault_seconds, 1e-12);
	/* A trace before format 4.3 (no cycle): the system time a fault where
	 * refaults are most of the faults, else the high end only. */
	in.page_cycle_seconds = 0;
	gt_verdict_price_refaults(&in, 106000);
	CHECK_NEAR(in.refault_point_seconds, in.refault_seconds, 1e-12);
	gt_verdict_price_refaults(&in, 140000);
	CHECK(in.refault_point_seconds == 0 && in.refault_seconds > 0);
	gt_verdict_price_refaults(&in, 0);
	CHECK(in.refault_point_seconds == 0 && in.refault_seconds == 0);
	return check_result("test_verdict");
}
