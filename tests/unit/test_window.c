/*
 * Unit test: inferring git's pack window size from mapped pack regions.
 */
#include "../check.h"
#include "window.h"

#define MIB (1ull << 20)

int main(void)
{
	/* 128m windows at multiples of 64m, the last one shorter. */
	struct gt_window_region w128[] = {{0, 128 * MIB, 40},
					  {64 * MIB, 128 * MIB, 40},
					  {128 * MIB, 128 * MIB, 40},
					  {192 * MIB, 126 * MIB, 40},
					  {256 * MIB, 62 * MIB, 40}};
	CHECK(gt_window_infer(w128, 5) == 128 * MIB);
	/* One whole pack from offset 0: the window is not shown. */
	struct gt_window_region whole[] = {{0, 300 * MIB, 1}};
	CHECK(gt_window_infer(whole, 1) == 0);
	CHECK(gt_window_infer(NULL, 0) == 0);
	/* An offset that is not a multiple of half the window: no inference. */
	struct gt_window_region odd[] = {{0, 64 * MIB, 3}, {48 * MIB, 64 * MIB, 3}};
	CHECK(gt_window_infer(odd, 2) == 0);
	/* Ties go to the longer length. */
	struct gt_window_region tie[] = {{0, 64 * MIB, 1}, {32 * MIB, 40 * MIB, 1}};
	CHECK(gt_window_infer(tie, 2) == 64 * MIB);
	/*
	 * Many regions in file order, lengths interleaved (4 KiB windows
	 * thrashing a pack): each length's maps are summed wherever its
	 * regions lie, and a tie still goes to the longer.
	 */
	enum { MANY = 40000 };
	static struct gt_window_region many[MANY];
	for (size_t i = 0; i < MANY; i++)
		many[i] = (struct gt_window_region){i * 4096, i % 4 ? 8192 : 4096, 1};
	CHECK(gt_window_infer(many, MANY) == 8192);
	for (size_t i = 0; i < MANY; i++)
		many[i] = (struct gt_window_region){i * 8192, i % 2 ? 8192 : 16384, 1};
	CHECK(gt_window_infer(many, MANY) == 16384);
	return check_result("test_window");
}
