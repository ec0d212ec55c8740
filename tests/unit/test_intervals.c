/*
 * Unit test: the interval map behind munmap/mremap accounting — partial
 * unmaps, splits, unmaps spanning several mappings, lookups.
 */
#include "../check.h"
#include "intervals.h"

static uint64_t removed_bytes;
static size_t pieces;

static void count(void *ctx, const struct gt_interval *piece, const struct gt_interval *orig)
{
	(void)ctx;
	(void)orig;
	removed_bytes += piece->len;
	pieces++;
}

int main(void)
{
	struct gt_intervals m = {0};
	struct gt_interval a = {0x1000, 0x5000, 0x4000, 0, 0, 1, 0};
	struct gt_interval b = {0x8000, 0xa000, 0x1800, 0x10000, 1, 2, 0};
	gt_intervals_insert(&m, &b);
	gt_intervals_insert(&m, &a);
	CHECK(m.n == 2 && m.v[0].start == 0x1000);
	CHECK(gt_intervals_find(&m, 0x4fff) == &m.v[0]);
	CHECK(gt_intervals_find(&m, 0x5000) == NULL);
	CHECK(gt_intervals_find(&m, 0x9000)->path_id == 2);

	/* A hole in the middle of a: split in two, file offset follows. */
	CHECK(gt_intervals_remove(&m, 0x2000, 0x3000, count, NULL) == 1);
	CHECK(removed_bytes == 0x1000 && m.n == 3);
	CHECK(m.v[1].start == 0x3000 && m.v[1].file_off == 0x2000 && m.v[1].len == 0x2000);

	/* Nothing there. */
	CHECK(gt_intervals_remove(&m, 0x6000, 0x7000, count, NULL) == 0);

	/* One range over the rest of a and all of b; b's asked-for length
	 * (0x1800) is what counts, not its page-rounded span. */
	removed_bytes = 0;
	pieces = 0;
	CHECK(gt_intervals_remove(&m, 0x1000, 0x10000, count, NULL) == 3);
	CHECK(removed_bytes == 0x1000 + 0x2000 + 0x1800 && pieces == 3);
	CHECK(m.n == 0);
	gt_intervals_release(&m);
	return check_result("test_intervals");
}
