/*
 * Unit test: the interval map behind munmap/mremap accounting — partial
 * unmaps, splits, unmaps spanning several mappings, lookups.
 */
#include <stdlib.h>

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

/*
 * Maps in the kernel's orders (top down, bottom up), then random maps and
 * unmaps over one to three of them, against a plain array of slots: the
 * interval array keeps room at both ends and moves its shorter side.
 */
#define SLOTS 4096
static int mapped[SLOTS]; /* slot k: [k * 0x2000, k * 0x2000 + 0x1000) */

static uint64_t slot_start(size_t k)
{
	return 0x10000 + (uint64_t)k * 0x2000;
}

static void check_against_model(const struct gt_intervals *m)
{
	size_t n = 0;
	for (size_t k = 0; k < SLOTS; k++) {
		const struct gt_interval *hit = gt_intervals_find(m, slot_start(k) + 0x800);
		if ((hit != NULL) != mapped[k] || (hit && hit->path_id != k)) {
			fprintf(stderr, "slot %zu: found %d, mapped %d\n", k, hit != NULL,
				mapped[k]);
			check_failures++;
			return;
		}
		n += mapped[k];
	}
	CHECK(m->n == n);
	for (size_t i = 1; i < m->n; i++)
		CHECK(m->v[i - 1].end <= m->v[i].start);
}

static void map_slot(struct gt_intervals *m, size_t k)
{
	struct gt_interval iv = {
		slot_start(k), slot_start(k) + 0x1000, 0x1000, 0, 0, (uint32_t)k, 0};
	gt_intervals_insert(m, &iv);
	mapped[k] = 1;
}

static void churn(void)
{
	struct gt_intervals m = {0};
	for (size_t k = SLOTS; k-- > SLOTS / 2;) /* top down */
		map_slot(&m, k);
	for (size_t k = 0; k < SLOTS / 2; k++) /* bottom up, below them */
		map_slot(&m, k);
	check_against_model(&m);
	srand(7);
	for (int op = 0; op < 20000 && !check_failures; op++) {
		size_t k = (size_t)rand() % SLOTS;
		if (rand() % 2) {
			if (!mapped[k])
				map_slot(&m, k);
		} else {
			/* From inside slot k over up to two more, ending inside a slot. */
			size_t last = k + (size_t)rand() % 3;
			if (last >= SLOTS)
				last = SLOTS - 1;
			gt_intervals_remove(&m, slot_start(k), slot_start(last) + 0x1000, NULL,
					    NULL);
			for (size_t j = k; j <= last; j++)
				mapped[j] = 0;
		}
		if (op % 1000 == 0)
			check_against_model(&m);
	}
	check_against_model(&m);
	gt_intervals_release(&m);
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

	churn();
	return check_result("test_intervals");
}
