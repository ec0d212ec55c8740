/*
 * format.h's "Addresses" end to end: the writer's coder (preload/addr_refs.c)
 * against the reader's decoder (gt_addr_decode), over random runs of
 * addresses with NULLs, fresh ones, repeats at every distance (the window's
 * edge included), extreme values and block starts. Every address must come
 * back, repeats within a block and the window must become references, and
 * nothing may refer past a block's start or the window.
 */
#include "../check.h"
#include "addr_refs.h"
#include "gittrace/format.h"

#include <stdlib.h>

#define RUN 200000

static uint64_t addrs[RUN];
static uint64_t rng = 0x9e3779b97f4a7c15u;

static uint64_t next_random(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* The i-th address of the run: repeats of recent ones, mostly. */
static uint64_t pick(size_t i)
{
	uint64_t r = next_random();
	switch (r % 8) {
	case 0:
		return 0;
	case 1:
		return (r >> 8) & ~(uint64_t)15; /* fresh */
	case 2: {
		static const uint64_t extremes[] = {1, UINT64_MAX, 0x8000000000000000u,
						    0x7fffffffffffffffu};
		return extremes[(r >> 8) % 4];
	}
	case 3: /* at the window's edge, or just past it */
		return i > GT_ADDR_WINDOW ? addrs[i - GT_ADDR_WINDOW + (r >> 8) % 3] : 42;
	default: { /* a recent one */
		size_t back = 1 + (size_t)((r >> 8) % (r & 16 ? 8 : 3000));
		return i >= back ? addrs[i - back] : 0x1000;
	}
	}
}

int main(void)
{
	CHECK(gt_addr_refs_init() == 0);
	struct gt_addr_history *h = malloc(sizeof(*h));
	gt_addr_history_reset(h);
	uint64_t refs = 0, news = 0;
	size_t block_len = 0;
	for (size_t i = 0; i < RUN; i++) {
		addrs[i] = pick(i);
		if (next_random() % 5000 == 0) { /* a new block */
			gt_addr_refs_block_start();
			gt_addr_history_reset(h);
			block_len = 0;
		}
		int64_t delta = 0;
		uint64_t code = gt_addr_refs_code(addrs[i], &delta), got = 0;
		if (code == GT_ADDR_NEW)
			news++;
		else if (code != GT_ADDR_NULL) {
			refs++;
			CHECK(code - 1 <= GT_ADDR_WINDOW && code - 1 <= block_len);
		}
		CHECK((code == GT_ADDR_NULL) == (addrs[i] == 0));
		CHECK(gt_addr_decode(h, code, delta, &got));
		if (got != addrs[i]) {
			fprintf(stderr, "address %zu: %#llx came back as %#llx\n", i,
				(unsigned long long)addrs[i], (unsigned long long)got);
			check_failures++;
			break;
		}
		if (addrs[i])
			block_len++;
	}
	CHECK(refs > RUN / 2);
	CHECK(news > RUN / 20);

	/* The same address again at once: a reference of 1; after a block start: new. */
	int64_t delta;
	gt_addr_refs_block_start();
	CHECK(gt_addr_refs_code(0xabc0, &delta) == GT_ADDR_NEW && delta == 0xabc0);
	CHECK(gt_addr_refs_code(0xabc0, &delta) == GT_ADDR_REF(1));
	CHECK(gt_addr_refs_code(0xabd0, &delta) == GT_ADDR_NEW && delta == 0x10);
	CHECK(gt_addr_refs_code(0xabc0, &delta) == GT_ADDR_REF(2));
	gt_addr_refs_block_start();
	CHECK(gt_addr_refs_code(0xabc0, &delta) == GT_ADDR_NEW && delta == 0xabc0);

	/* A reference reaches GT_ADDR_WINDOW addresses back, not one more. */
	gt_addr_refs_block_start();
	CHECK(gt_addr_refs_code(0x100000, &delta) == GT_ADDR_NEW);
	for (uint64_t j = 1; j < GT_ADDR_WINDOW; j++)
		gt_addr_refs_code(0x200000 + 16 * j, &delta);
	CHECK(gt_addr_refs_code(0x100000, &delta) == GT_ADDR_REF(GT_ADDR_WINDOW));
	for (uint64_t j = 0; j < GT_ADDR_WINDOW; j++)
		gt_addr_refs_code(0x300000 + 16 * j, &delta);
	CHECK(gt_addr_refs_code(0x100000, &delta) == GT_ADDR_NEW);

	/* A reader refuses what no block can hold. */
	uint64_t got;
	gt_addr_history_reset(h);
	CHECK(!gt_addr_decode(h, GT_ADDR_REF(1), 0, &got));
	CHECK(gt_addr_decode(h, GT_ADDR_NEW, 0x40, &got) && got == 0x40);
	CHECK(gt_addr_decode(h, GT_ADDR_REF(1), 0, &got) && got == 0x40);
	CHECK(!gt_addr_decode(h, GT_ADDR_REF(3), 0, &got));
	free(h);
	return check_result("addr_refs");
}
