/*
 * Unit test: a replay (gittrace-report --replay=FILE) as verdict evidence,
 * on made-up facts and a made-up replay file: the deltas summed per
 * allocator over the images of a pid, the changes as shares of the CPU
 * time beside the estimate, and the evidence when the two disagree. The
 * class and headline stay the estimate's.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../check.h"
#include "replay_input.h"
#include "verdict.h"

static int any(char **v, size_t n, const char *needle)
{
	for (size_t i = 0; i < n; i++)
		if (strstr(v[i], needle))
			return 1;
	return 0;
}

/* Two images of pid 7 and one of pid 8; one with a single round (nulls). */
static const char replay_json[] =
	"{\"gittrace_replay\": 1, \"images\": ["
	"{\"pid\": 7, \"argv\": [\"git\"], \"calls\": 10, \"allocators\": ["
	" {\"name\": \"system\", \"seconds\": 2, \"ci_low\": 1, \"ci_high\": 1, \"ratio\": 1,"
	"  \"peak_rss_bytes\": 1, \"predicted_run_change\": 0},"
	" {\"name\": \"mimalloc\", \"seconds\": 1.5, \"ci_low\": 0.7, \"ci_high\": 0.8,"
	"  \"ratio\": 0.75, \"peak_rss_bytes\": 1, \"predicted_run_change\": -0.05}]},"
	"{\"pid\": 7, \"argv\": [\"git\"], \"calls\": 10, \"allocators\": ["
	" {\"name\": \"system\", \"seconds\": 1, \"ci_low\": 1, \"ci_high\": 1, \"ratio\": 1,"
	"  \"peak_rss_bytes\": 1, \"predicted_run_change\": 0},"
	" {\"name\": \"mimalloc\", \"seconds\": 0.5, \"ci_low\": 0.4, \"ci_high\": 0.6,"
	"  \"ratio\": 0.5, \"peak_rss_bytes\": 1, \"predicted_run_change\": -0.05}]},"
	"{\"pid\": 8, \"argv\": [\"git\"], \"calls\": 10, \"allocators\": ["
	" {\"name\": \"system\", \"seconds\": 1, \"ci_low\": null, \"ci_high\": null,"
	"  \"ratio\": 1, \"peak_rss_bytes\": 1, \"predicted_run_change\": null},"
	" {\"name\": \"jemalloc\", \"seconds\": 1.2, \"ci_low\": null, \"ci_high\": null,"
	"  \"ratio\": 1.2, \"peak_rss_bytes\": 1, \"predicted_run_change\": null}]}]}";

/* 10 s of CPU; an allocator-bound estimate (10% saved) when bound. */
static void facts(struct gt_verdict_input *in, int bound)
{
	memset(in, 0, sizeof(*in));
	in->cpu_seconds = 10;
	in->allocator_seconds = 3;
	in->allocator_excess_usual = bound ? 1.0 : 0.1;
	in->allocator_excess_slow = in->allocator_excess_usual / 2;
	in->limit_below = UINT64_MAX;
}

int main(void)
{
	char path[] = "/tmp/test_verdict_replay.XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f || fputs(replay_json, f) < 0 || fclose(f))
		return 1;
	struct gt_replay_input replay;
	gt_replay_input_read(path, &replay);
	remove(path);
	CHECK(replay.n == 3);

	/* pid 7: mimalloc saves 0.5 s + 0.5 s; the interval from the ratios'. */
	size_t n;
	struct gt_replay_delta *d = gt_replay_input_deltas(&replay, 7, &n);
	CHECK(n == 1 && !strcmp(d[0].allocator, "mimalloc"));
	CHECK_NEAR(d[0].seconds, -1.0, 1e-12);
	CHECK_NEAR(d[0].low, -0.3 * 2 - 0.6 * 1, 1e-12);
	CHECK_NEAR(d[0].high, -0.2 * 2 - 0.4 * 1, 1e-12);

	/* An allocator-bound estimate that the replay bears out. */
	struct gt_verdict_input in;
	struct gt_verdict v;
	facts(&in, 1);
	in.replay = d;
	in.nreplay = n;
	gt_verdict_compute(&v, &in);
	CHECK(v.cls == GT_VERDICT_ALLOCATOR && v.nreplay == 1);
	CHECK_NEAR(v.replay[0].change, -0.1, 1e-12);
	CHECK_NEAR(v.replay[0].low, -0.12, 1e-12);
	CHECK_NEAR(v.replay[0].high, -0.08, 1e-12);
	CHECK(any(v.evidence, v.nevidence,
		  "replay: mimalloc changes the run by -10.0% (-12.0 to -8.0%), beside the "
		  "estimate of another allocator's saving, 10.0%"));
	CHECK(!any(v.evidence, v.nevidence, "disagrees"));
	gt_verdict_release(&v);

	/* Not allocator-bound by the estimate, but the replay saves 10%. */
	facts(&in, 0);
	in.replay = d;
	in.nreplay = n;
	in.command = "git log";
	gt_verdict_compute(&v, &in);
	CHECK(v.cls == GT_VERDICT_NEITHER);
	CHECK(any(v.evidence, v.nevidence,
		  "the replay disagrees: mimalloc would save 10% of the run; measure it: "
		  "gittrace ab --alloc mimalloc -- git log"));
	gt_verdict_release(&v);
	free(d);

	/* pid 8: jemalloc adds time, one round (no interval); allocator-bound disagrees. */
	d = gt_replay_input_deltas(&replay, 8, &n);
	CHECK(n == 1 && !strcmp(d[0].allocator, "jemalloc") && isnan(d[0].low));
	facts(&in, 1);
	in.replay = d;
	in.nreplay = n;
	gt_verdict_compute(&v, &in);
	CHECK(v.cls == GT_VERDICT_ALLOCATOR);
	CHECK_NEAR(v.replay[0].change, 0.02, 1e-12);
	CHECK(any(v.evidence, v.nevidence, "jemalloc changes the run by +2.0% (one round"));
	CHECK(any(v.evidence, v.nevidence, "the replay disagrees: no replayed allocator saves 5%"));
	gt_verdict_release(&v);
	free(d);

	/* All images: one entry per allocator, in the file's order. */
	d = gt_replay_input_deltas(&replay, -1, &n);
	CHECK(n == 2 && !strcmp(d[0].allocator, "mimalloc") && !strcmp(d[1].allocator, "jemalloc"));
	free(d);

	/* No replay: no replay evidence. */
	facts(&in, 1);
	gt_verdict_compute(&v, &in);
	CHECK(v.nreplay == 0 && !any(v.evidence, v.nevidence, "replay"));
	gt_verdict_release(&v);
	gt_replay_input_release(&replay);
	return check_result("test_verdict_replay");
}
