/*
 * Unit test: the verdict's classes at and around the documented
 * thresholds, and that suggestions name the git settings.
 */
#include <string.h>

#include "check.h"
#include "verdict.h"

static int any(char **v, size_t n, const char *needle)
{
	for (size_t i = 0; i < n; i++)
		if (strstr(v[i], needle))
			return 1;
	return 0;
}

static enum gt_verdict_class classify(double alloc, double map, uint64_t pack_calls,
				      uint64_t map_calls)
{
	struct gt_verdict_input in = {0};
	struct gt_verdict v;
	in.cpu_seconds = 10;
	in.allocator_seconds = 10 * alloc;
	in.mmap_seconds = 10 * map;
	in.pack_mmaps = pack_calls / 2;
	in.pack_munmaps = pack_calls / 2;
	in.pack_regions = pack_calls / 2; /* thrash 1: only the bulk rule */
	in.map_calls = map_calls;
	in.limit_below = UINT64_MAX;
	gt_verdict_compute(&v, &in);
	enum gt_verdict_class c = v.cls;
	gt_verdict_release(&v);
	return c;
}

int main(void)
{
	CHECK(classify(GT_ALLOCATOR_SHARE_MIN, 0.05, 0, 10) == GT_VERDICT_ALLOCATOR);
	CHECK(classify(GT_ALLOCATOR_SHARE_MIN - 0.01, 0.05, 0, 10) == GT_VERDICT_NEITHER);
	CHECK(classify(0.30, 0.40, 100, 100) == GT_VERDICT_WINDOW);
	CHECK(classify(0.05, 0.10, 100, 100) == GT_VERDICT_WINDOW);
	CHECK(classify(0.05, 0.09, 100, 100) == GT_VERDICT_NEITHER);
	/* Map time but pack windows are not the bulk and no thrash. */
	CHECK(classify(0.05, 0.30, 40, 100) == GT_VERDICT_NEITHER);

	struct gt_verdict_input in = {0};
	struct gt_verdict v;
	const char *env[] = {"MALLOC_PERTURB_=165", "LD_PRELOAD=/usr/lib/libjemalloc.so.2"};
	in.cpu_seconds = 1;
	in.mmap_seconds = 0.5;
	in.map_calls = 1000;
	in.pack_mmaps = 500;
	in.pack_munmaps = 498;
	in.pack_regions = 20;
	in.window = 128 << 20;
	in.evictions = 498;
	in.limit_at_least = 128 << 20;
	in.limit_below = 256 << 20;
	in.loose_mmaps = 3;
	in.env = env;
	in.envc = 2;
	gt_verdict_compute(&v, &in);
	CHECK(v.cls == GT_VERDICT_WINDOW);
	CHECK(any(v.suggestions, v.nsuggestions, "git config --unset core.packedGitLimit"));
	CHECK(any(v.suggestions, v.nsuggestions, "core.packedGitWindowSize=1g"));
	CHECK(any(v.suggestions, v.nsuggestions, "GIT_TRACE2_CONFIG_PARAMS='core.packed*'"));
	CHECK(any(v.suggestions, v.nsuggestions, "git gc"));
	CHECK(any(v.evidence, v.nevidence, "at least 128 MiB and below 256 MiB"));
	CHECK(any(v.evidence, v.nevidence, "window size in effect: 128 MiB"));
	CHECK(any(v.evidence, v.nevidence, "MALLOC_PERTURB_=165 is set"));
	CHECK(any(v.evidence, v.nevidence, "another allocator is already preloaded"));
	CHECK(any(v.evidence, v.nevidence, "upper bound, not a prediction"));
	gt_verdict_release(&v);
	return check_failures != 0;
}
