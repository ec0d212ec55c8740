/*
 * Unit test: map accounting — counts by kind, partial and spanning
 * munmaps, mremap moves, failed calls, remapped regions and the
 * core.packedGitLimit bounds from LRU evictions; what windows cost while
 * mapped (readings shared among the live windows); the window advice's
 * model fed from the same calls.
 */
#include "../check.h"
#include "maps.h"

#define PAGE 4096
#define KIB  1024ull

int main(void)
{
	struct gt_maps m;
	gt_maps_init(&m);

	/* Two pack windows of 64 KiB (limit between 128 and 192 KiB): the
	 * third map evicts the first. */
	gt_maps_mmap(&m, 0x100000, 64 * KIB, 0, GT_MAP_PACK, 1, 0, PAGE, 1, 10);
	gt_maps_mmap(&m, 0x200000, 64 * KIB, 32 * KIB, GT_MAP_PACK, 1, 0, PAGE, 2, 10);
	gt_maps_munmap(&m, 0x100000, 64 * KIB, 0, PAGE, 10);
	gt_maps_mmap(&m, 0x300000, 64 * KIB, 64 * KIB, GT_MAP_PACK, 1, 0, PAGE, 3, 10);
	CHECK(m.evictions == 1);
	CHECK(m.limit_at_least == 128 * KIB && m.limit_below == 192 * KIB);
	/* Mapping the first region again: remapped. */
	gt_maps_munmap(&m, 0x200000, 64 * KIB, 0, PAGE, 10);
	gt_maps_mmap(&m, 0x100000, 64 * KIB, 0, GT_MAP_PACK, 1, 0, PAGE, 4, 10);
	CHECK(m.remapped_regions == 1 && m.distinct_pack_regions == 3);
	CHECK(m.kind[GT_MAP_PACK].mmaps == 4 && m.kind[GT_MAP_PACK].munmaps == 2);
	/* Two evicting unmaps and the map of a region mapped before, 10 ns each. */
	CHECK(m.again_calls_ns == 30);
	CHECK(gt_maps_inferred_window(&m) == 64 * KIB);
	/* The window advice's model (window_advice.h) keeps all three: the
	 * unmaps were evictions, and the last map found its window mapped. */
	CHECK(m.unlimited.peak == 192 * KIB && m.unlimited.requests == 4);

	/* One munmap spanning both live pack windows and a hole. */
	gt_maps_munmap(&m, 0x100000, 0x300000 - 0x100000 + 64 * KIB, 0, PAGE, 10);
	CHECK(m.kind[GT_MAP_PACK].munmaps == 3); /* once per kind hit */
	CHECK(m.pack_mapped_bytes == 0 && m.mapped_bytes == 0);

	/* Anonymous 1 MiB, grown by mremap to 2 MiB at a new address. */
	gt_maps_mmap(&m, 0x1000000, 1024 * KIB, 0, GT_MAP_ANONYMOUS, 0, 0, PAGE, 5, 10);
	gt_maps_mremap(&m, 0x1000000, 1024 * KIB, 2048 * KIB, 0x4000000, 0, PAGE, 6);
	CHECK(m.kind[GT_MAP_ANONYMOUS].mremaps == 1);
	/* The spanning munmap came before another map: git's own, replayed. */
	CHECK(m.unlimited.git_releases == 2);
	CHECK(m.mapped_bytes == 2048 * KIB && m.peak_mapped_bytes == 2048 * KIB);
	/* The old range is gone: unmapping it hits nothing. */
	gt_maps_munmap(&m, 0x1000000, 1024 * KIB, 0, PAGE, 10);
	CHECK(m.untracked_munmaps == 1);
	/* Half of the moved mapping. */
	gt_maps_munmap(&m, 0x4000000 + 1024 * KIB, 1024 * KIB, 0, PAGE, 10);
	CHECK(m.mapped_bytes == 1024 * KIB);

	/* Failed calls count but map nothing. */
	gt_maps_mmap(&m, UINT64_MAX, 4096, 0, GT_MAP_OTHER, 2, 1, PAGE, 7, 10);
	gt_maps_munmap(&m, 0x4000000, 4096, 1, PAGE, 10);
	CHECK(m.failed_calls == 2 && m.kind[GT_MAP_OTHER].mmaps == 0);
	CHECK(m.mapped_bytes == 1024 * KIB);
	gt_maps_release(&m);

	/* Costs while mapped: each reading goes to the windows mapped before its call. */
	struct gt_maps c;
	gt_maps_init(&c);
	gt_maps_mmap(&c, 0x100000, 64 * KIB, 0, GT_MAP_PACK, 1, 0, PAGE, 1, 100);
	gt_maps_usage(&c, 5, 1000, 0); /* no window before that map: nobody's */
	CHECK(c.usage_periods == 0);
	gt_maps_munmap(&c, 0x100000, 64 * KIB, 0, PAGE, 50);
	gt_maps_usage(&c, 8, 550, 0); /* the first window's: 8 faults, 550 ns */
	gt_maps_mmap(&c, 0x200000, 64 * KIB, 0, GT_MAP_PACK, 1, 0, PAGE, 2, 100); /* again */
	gt_maps_mmap(&c, 0x300000, 64 * KIB, 64 * KIB, GT_MAP_PACK, 1, 0, PAGE, 3, 100);
	gt_maps_usage(&c, 4, 300, 0); /* only the window mapped again was live */
	gt_maps_munmap(&c, 0x200000, 64 * KIB, 0, PAGE, 50);
	gt_maps_usage(&c, 6, 650, 0); /* both: shared half and half */
	CHECK(c.usage_periods == 3);
	CHECK(c.first.faults == 8 + 3 && c.again.faults == 4 + 3);
	CHECK(c.first.system_ns == 550 + 325 && c.again.system_ns == 300 + 325);
	CHECK(c.first.any_system_ns == 550 + 650 && c.again.any_system_ns == 300 + 650);
	/* The evicting unmap and the map of the region mapped before. */
	CHECK(c.again_calls_ns == 50 + 100);
	CHECK(c.live_first == 1 && c.live_again == 0);
	gt_maps_release(&c);

	/*
	 * The tracer's own system calls around the readings come off the
	 * kernel time: 400 ns of them in a period that read 300 ns (the kernel's
	 * ticks put the rest in the next period, which read 900), and the sums
	 * read 0 where they net below it.
	 */
	struct gt_maps n;
	gt_maps_init(&n);
	gt_maps_mmap(&n, 0x100000, 64 * KIB, 0, GT_MAP_PACK, 1, 0, PAGE, 1, 100);
	gt_maps_usage(&n, 1, 100, 0); /* before any window: nobody's */
	gt_maps_mmap(&n, 0x200000, 64 * KIB, 64 * KIB, GT_MAP_PACK, 1, 0, PAGE, 2, 100);
	gt_maps_usage(&n, 1, 300, 400);
	CHECK(n.first.system_ns == -100 && gt_window_cost_system_ns(n.first.system_ns) == 0);
	gt_maps_munmap(&n, 0x200000, 64 * KIB, 0, PAGE, 50);
	gt_maps_usage(&n, 1, 900, 400);
	CHECK(n.first.system_ns == 400 && n.first.any_system_ns == 400);
	CHECK(gt_window_cost_system_ns(n.first.system_ns) == 400);
	CHECK(n.again.system_ns == 0 && n.usage_periods == 2);
	gt_maps_release(&n);
	return check_result("test_maps");
}
