/*
 * Unit test: the window-advice model (window_advice.h) on synthetic pack
 * map sequences, as a trace holds them: evictions at a low limit and none
 * at the advised one, "no change" without recorded evictions, several
 * packs, overlapping windows (git aligns them to half the window size),
 * git's own unmaps, and the limit in git's units.
 */
#include "../check.h"
#include "window_advice.h"

#define KIB 1024ull
#define MIB (1024 * KIB)
#define WIN (64 * KIB)

/* One request: the trace's eviction unmaps before it, then the map. */
struct step {
	uint64_t pack, offset, len;
	int unmap_first; /* the trace unmapped window[unmap_first - 1] right before */
};

/* Three 64 KiB windows of one pack read round and round, as a trace at a
 * 128 KiB limit records them: every map after the second evicts. */
static const struct step cycle[] = {
	{1, 0, WIN, 0},	  {1, WIN, WIN, 0},	{1, 2 * WIN, WIN, 1}, {1, 0, WIN, 2},
	{1, WIN, WIN, 3}, {1, 2 * WIN, WIN, 4}, {1, 0, WIN, 5},	      {1, WIN, WIN, 6},
};

static void feed(struct gt_window_sim *s, const struct step *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (v[i].unmap_first) {
			const struct step *u = &v[v[i].unmap_first - 1];
			gt_window_sim_unmap(s, u->pack, u->offset, u->len);
		}
		gt_window_sim_map(s, v[i].pack, v[i].offset, v[i].len);
	}
	gt_window_sim_settle(s);
}

/* The model of v at limit: its evictions and remaps. */
static void at_limit(const struct step *v, size_t n, uint64_t limit, uint64_t *evictions,
		     uint64_t *remaps)
{
	struct gt_window_sim s;
	gt_window_sim_init(&s, limit);
	feed(&s, v, n);
	*evictions = s.evictions;
	*remaps = s.remaps;
	gt_window_sim_release(&s);
}

static void test_cycle(void)
{
	struct gt_window_sim s;
	gt_window_sim_init(&s, UINT64_MAX);
	feed(&s, cycle, sizeof(cycle) / sizeof(cycle[0]));
	/* Without a limit the three windows stay: the trace's unmaps were evictions. */
	CHECK(s.peak == 3 * WIN && s.mapped == 3 * WIN && s.peak_kept == 3 * WIN);
	CHECK(s.evictions == 0 && s.remaps == 0 && s.git_releases == 0);
	CHECK(s.requests == 8);
	struct gt_window_advice a;
	gt_window_advise(&a, &s, 6, WIN);
	CHECK(a.raise && a.needed == 3 * WIN && a.least == 3 * WIN && a.limit == MIB);
	CHECK_STR(a.limit_value, "1m");
	CHECK_STR(a.window_value, "64k");
	CHECK_STR(a.git_config, "-c core.packedGitLimit=1m -c core.packedGitWindowSize=64k");
	CHECK(!a.many_windows);
	/* 1 MiB holds 1024 windows of 1 KiB: git would search them one by one. */
	gt_window_advise(&a, &s, 6, 1024);
	CHECK(a.limit == MIB && a.many_windows);
	char text[512];
	gt_window_advice_describe(text, sizeof(text), &a);
	CHECK(strstr(text, "but that is 1024 windows of 1k at once, which git searches one by "
			   "one") != NULL);
	gt_window_sim_release(&s);

	uint64_t ev, re;
	size_t n = sizeof(cycle) / sizeof(cycle[0]);
	/* At the trace's limit the model evicts as git did: every map after the second. */
	at_limit(cycle, n, 2 * WIN, &ev, &re);
	CHECK(ev == 6 && re == 5);
	/* One byte below the peak still evicts; the peak itself does not. */
	at_limit(cycle, n, 3 * WIN - 1, &ev, &re);
	CHECK(ev > 0 && re > 0);
	at_limit(cycle, n, 3 * WIN, &ev, &re);
	CHECK(ev == 0 && re == 0);
	at_limit(cycle, n, MIB, &ev, &re);
	CHECK(ev == 0 && re == 0);
}

static void test_no_change(void)
{
	/* Two windows, never unmapped: nothing to advise. */
	struct gt_window_sim s;
	gt_window_sim_init(&s, UINT64_MAX);
	gt_window_sim_map(&s, 1, 0, WIN);
	gt_window_sim_map(&s, 1, WIN, WIN);
	gt_window_sim_settle(&s);
	struct gt_window_advice a;
	gt_window_advise(&a, &s, 0, WIN);
	CHECK(!a.raise && a.limit == 0 && a.needed == 2 * WIN);
	CHECK_STR(a.git_config, "");
	char text[256];
	gt_window_advice_describe(text, sizeof(text), &a);
	CHECK(strncmp(text, "no change", 9) == 0);
	gt_window_sim_release(&s);
}

/* Whole packs (a window larger than each pack), the limit below their sum. */
static void test_packs(void)
{
	static const struct step packs[] = {
		{1, 0, 300 * KIB, 0}, {2, 0, 500 * KIB, 1}, {3, 0, 200 * KIB, 2},
		{1, 0, 300 * KIB, 3}, {2, 0, 500 * KIB, 4},
	};
	size_t n = sizeof(packs) / sizeof(packs[0]);
	struct gt_window_sim s;
	gt_window_sim_init(&s, UINT64_MAX);
	feed(&s, packs, n);
	CHECK(s.peak == 1000 * KIB && s.peak_kept == 1000 * KIB && s.evictions == 0);
	struct gt_window_advice a;
	/* No window size shows: the advice leaves it alone. */
	gt_window_advise(&a, &s, 4, 0);
	CHECK_STR(a.git_config, "-c core.packedGitLimit=1m");
	CHECK_STR(a.window_value, "");
	gt_window_sim_release(&s);

	uint64_t ev, re;
	at_limit(packs, n, 1000 * KIB, &ev, &re);
	CHECK(ev == 0 && re == 0);
	/* Least recently used across packs: at 800 KiB pack 3 evicts pack 1, which
	 * then evicts pack 2, which evicts pack 3. */
	at_limit(packs, n, 800 * KIB, &ev, &re);
	CHECK(ev == 3 && re == 2);
}

/* Windows at multiples of half the window size overlap. */
static void test_overlap(void)
{
	struct gt_window_sim s;
	gt_window_sim_init(&s, UINT64_MAX);
	/* [32k, 96k) mapped while [0, 64k) was mapped in the trace (git evicted
	 * it for the new one): git asked for the last bytes of [0, 64k), which
	 * it does not serve, so both count in full. */
	gt_window_sim_map(&s, 1, 0, WIN);
	gt_window_sim_unmap(&s, 1, 0, WIN);
	gt_window_sim_map(&s, 1, WIN / 2, WIN);
	gt_window_sim_settle(&s);
	CHECK(s.peak == 2 * WIN && s.mapped == 2 * WIN && s.peak_kept == 2 * WIN);
	gt_window_sim_release(&s);

	/* [32k, 96k) asked for after [0, 64k) was long gone from the trace:
	 * git asked for its start, which the model's [0, 64k) serves. */
	gt_window_sim_init(&s, UINT64_MAX);
	gt_window_sim_map(&s, 1, 0, WIN);
	gt_window_sim_unmap(&s, 1, 0, WIN);
	gt_window_sim_map(&s, 1, 4 * WIN, WIN);
	gt_window_sim_unmap(&s, 1, 4 * WIN, WIN);
	gt_window_sim_map(&s, 1, WIN / 2, WIN);
	gt_window_sim_settle(&s);
	CHECK(s.peak == 2 * WIN && s.requests == 3);
	/* The advice keeps every window the trace mapped: git may read [32k, 96k)'s
	 * second half later, unseen. */
	CHECK(s.peak_kept == 3 * WIN);
	struct gt_window_advice a;
	gt_window_advise(&a, &s, 2, WIN);
	CHECK(a.needed == 3 * WIN && a.least == 2 * WIN);
	gt_window_sim_release(&s);

	/* The pack's last window is shorter; a window of another pack at the
	 * same offset serves nothing here. */
	gt_window_sim_init(&s, UINT64_MAX);
	gt_window_sim_map(&s, 2, 0, WIN);
	gt_window_sim_map(&s, 1, WIN, 10 * KIB);
	gt_window_sim_settle(&s);
	CHECK(s.peak == WIN + 10 * KIB);
	gt_window_sim_release(&s);
}

/* Unmaps not followed by a pack map are git's own (a pack closed). */
static void test_git_releases(void)
{
	struct gt_window_sim s;
	gt_window_sim_init(&s, UINT64_MAX);
	gt_window_sim_map(&s, 1, 0, WIN);
	gt_window_sim_map(&s, 2, 0, WIN);
	gt_window_sim_unmap(&s, 1, 0, WIN);
	gt_window_sim_unmap(&s, 2, 0, WIN);
	gt_window_sim_settle(&s); /* another map call came next */
	CHECK(s.git_releases == 2 && s.mapped == 0 && s.kept == 0);
	gt_window_sim_map(&s, 1, 0, WIN);
	gt_window_sim_settle(&s);
	/* Mapped again after git closed it: not a remap the limit caused. */
	CHECK(s.peak == 2 * WIN && s.mapped == WIN && s.remaps == 0);
	CHECK(s.peak_kept == 2 * WIN && s.kept == WIN);
	/* An unmap of a window never mapped is ignored. */
	gt_window_sim_unmap(&s, 3, 0, WIN);
	gt_window_sim_settle(&s);
	CHECK(s.git_releases == 2);
	gt_window_sim_release(&s);
}

static void test_units(void)
{
	char b[24];
	gt_git_size(b, sizeof(b), 2 * 1024 * MIB);
	CHECK_STR(b, "2g");
	gt_git_size(b, sizeof(b), 3 * MIB);
	CHECK_STR(b, "3m");
	gt_git_size(b, sizeof(b), WIN);
	CHECK_STR(b, "64k");
	gt_git_size(b, sizeof(b), 1000);
	CHECK_STR(b, "1000");

	/* The advised limit: the peak rounded up to whole MiB. */
	struct gt_window_sim s;
	struct gt_window_advice a;
	gt_window_sim_init(&s, UINT64_MAX);
	s.peak_kept = MIB;
	gt_window_advise(&a, &s, 1, 0);
	CHECK(a.limit == MIB);
	s.peak_kept = MIB + 1;
	gt_window_advise(&a, &s, 1, 0);
	CHECK(a.limit == 2 * MIB);
	s.peak_kept = 1024 * MIB;
	gt_window_advise(&a, &s, 1, 0);
	CHECK_STR(a.limit_value, "1g");
	gt_window_sim_release(&s);
}

int main(void)
{
	test_cycle();
	test_no_change();
	test_packs();
	test_overlap();
	test_git_releases();
	test_units();
	return check_result("test_window_advice");
}
