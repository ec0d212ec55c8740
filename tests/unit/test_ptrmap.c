/*
 * Unit test: the live-allocation map under random insert/delete churn,
 * checked against a plain array (backward-shift deletion is easy to get
 * wrong at the table's wrap-around); then a table grown past the size
 * that is mapped instead of allocated (ptrmap.c, empty_slots).
 */
#include <stdlib.h>

#include "../check.h"
#include "ptrmap.h"

#define N 5000

static uint64_t keys[N];
static int present[N];

/* BIG keys: a table of 256 Ki slots of 32 bytes, 8 MiB, mapped at each
 * growth from 2 MiB on, its new slots read as empty. */
#define BIG 100000

static void check_big_table(void)
{
	struct gt_ptrmap m = {0};
	for (uint64_t k = 1; k <= BIG; k++) {
		int existed;
		struct gt_live *e = gt_ptrmap_claim(&m, k * 48, &existed);
		CHECK(!existed && e->size == 0 && e->stack == 0);
		e->size = k;
	}
	CHECK(m.count == BIG && gt_ptrmap_capacity(&m) == 262144);
	for (uint64_t k = 1; k <= BIG; k++) {
		struct gt_live *e = gt_ptrmap_get(&m, k * 48);
		CHECK(e && e->size == k);
		if (!e || check_failures)
			break;
		gt_ptrmap_del(&m, e);
	}
	CHECK(m.count == 0 && !gt_ptrmap_get(&m, 48));
	gt_ptrmap_release(&m);
}

int main(void)
{
	check_big_table();
	struct gt_ptrmap m = {0};
	srand(12345);
	for (int i = 0; i < N; i++)
		keys[i] = ((uint64_t)rand() << 20 | (uint64_t)rand()) * 16 + 16;
	for (int round = 0; round < 200000; round++) {
		int i = rand() % N;
		struct gt_live *e = gt_ptrmap_get(&m, keys[i]);
		CHECK((e != NULL) == present[i]);
		if (present[i]) {
			CHECK(e->size == (uint64_t)i);
			gt_ptrmap_del(&m, e);
			present[i] = 0;
		} else {
			struct gt_live v = {keys[i], (uint64_t)i, 0, 0, 0};
			gt_ptrmap_put(&m, &v);
			present[i] = 1;
		}
		if (check_failures)
			break;
	}
	size_t count = 0;
	for (int i = 0; i < N; i++)
		count += present[i];
	CHECK(m.count == count);
	size_t seen = 0;
	for (size_t s = 0; s < gt_ptrmap_capacity(&m); s++)
		seen += m.slots[s].ptr != 0;
	CHECK(seen == count);
	gt_ptrmap_release(&m);
	return check_result("test_ptrmap");
}
