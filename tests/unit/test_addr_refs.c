/*
 * format.h's "Addresses" end to end: the writer's coder (preload/addr_refs.c)
 * against the reader's decoder (gt_addr_decode), over random runs of heap
 * and map calls from a model allocator that hands out freed blocks mostly
 * LIFO by size class, sometimes from a few places down, with NULLs,
 * extreme values, repeats at every distance and block starts. Every
 * address must come back; repeats must become references and reused blocks
 * codes from their class's list, at depth too; nothing may refer past a
 * block's start or the window. 3.x blocks still decode as 3.x wrote them.
 */
#include "../check.h"
#include "addr_refs.h"
#include "gittrace/format.h"

#include <stdlib.h>
#include <string.h>

#define RUN 300000

struct arg {
	uint64_t addr, bytes;
	enum gt_addr_role role;
};

static uint64_t rng = 0x9e3779b97f4a7c15u;

static uint64_t next_random(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* The model allocator: live blocks, and freed ones LIFO by class. */
#define LIVE_MAX 4096
struct block {
	uint64_t addr, bytes;
};
static struct block live[LIVE_MAX];
static size_t nlive;
static uint64_t freed[8][64]; /* by the index of its size in sizes[] */
static size_t nfreed[8];
static uint64_t fresh = 0x10000;
static const uint64_t sizes[8] = {16, 24, 40, 100, 1000, 5000, 60000, 1 << 20};

static struct arg next_arg(void)
{
	uint64_t r = next_random();
	switch (r % 16) {
	case 0: /* free(NULL) */
		return (struct arg){0, 1, GT_ADDR_GIVEN_BACK};
	case 1: { /* a map call's address, or an extreme one */
		static const uint64_t odd[] = {1, UINT64_MAX, 0x8000000000000000u, 0x7f0000001000u};
		return (struct arg){odd[(r >> 8) % 4], 1, GT_ADDR_PLAIN};
	}
	case 2:
	case 3:
	case 4:
	case 5:
	case 6:
	case 7: { /* an allocation */
		unsigned k = (unsigned)((r >> 8) % 8);
		uint64_t a = fresh += 0x40;
		if (nfreed[k] && (r >> 16) % 4) { /* the last freed, or one a few below it */
			size_t down = (r >> 20) % 8 < 5 ? 0 : (r >> 24) % nfreed[k];
			size_t i = nfreed[k] - 1 - down;
			a = freed[k][i];
			memmove(&freed[k][i], &freed[k][i + 1], down * sizeof(freed[k][0]));
			nfreed[k]--;
		}
		if (nlive < LIVE_MAX)
			live[nlive++] = (struct block){a, sizes[k]};
		return (struct arg){a, sizes[k], GT_ADDR_RETURNED};
	}
	default: { /* a free: of a recent block mostly */
		if (!nlive)
			return (struct arg){0, 1, GT_ADDR_GIVEN_BACK};
		size_t back = 1 + (size_t)((r >> 8) % (r & 16 ? 4 : nlive));
		size_t i = nlive > back ? nlive - back : 0;
		uint64_t a = live[i].addr, bytes = live[i].bytes;
		live[i] = live[--nlive];
		for (unsigned k = 0; k < 8; k++)
			if (sizes[k] == bytes && nfreed[k] < 64)
				freed[k][nfreed[k]++] = a;
		return (struct arg){a, 1, GT_ADDR_GIVEN_BACK};
	}
	}
}

/* The cases written out below: each code, and that it decodes to its address. */
static struct gt_addr_history *mirror;

static void block_start(void)
{
	gt_addr_refs_block_start();
	gt_addr_history_reset(mirror, GT_FORMAT_MAJOR);
}

static uint64_t code(uint64_t addr, enum gt_addr_role role, uint64_t bytes)
{
	int64_t delta = 0;
	uint64_t c = gt_addr_refs_code(addr, role, bytes, &delta), got = 0;
	CHECK(gt_addr_decode(mirror, c, delta, role, bytes, &got) && got == addr);
	return c;
}

int main(void)
{
	CHECK(gt_addr_refs_init() == 0);
	struct gt_addr_history *h = malloc(sizeof(*h));
	mirror = malloc(sizeof(*mirror));
	gt_addr_history_reset(h, GT_FORMAT_MAJOR);
	uint64_t refs = 0, news = 0, from_freed = 0, from_deep = 0;
	size_t block_len = 0;
	for (size_t i = 0; i < RUN; i++) {
		struct arg a = next_arg();
		if (next_random() % 5000 == 0) { /* a new block */
			gt_addr_refs_block_start();
			gt_addr_history_reset(h, GT_FORMAT_MAJOR);
			block_len = 0;
		}
		int64_t delta = 0;
		uint64_t c = gt_addr_refs_code(a.addr, a.role, a.bytes, &delta), got = 0;
		uint64_t ref_base =
			a.role == GT_ADDR_RETURNED ? GT_ADDR_RETURNED_REF(0) : GT_ADDR_REF(0);
		if (c == GT_ADDR_NEW)
			news++;
		else if (c >= GT_ADDR_FROM_FREED && c < ref_base) {
			from_freed++;
			from_deep += c > GT_ADDR_FROM_FREED;
			CHECK(a.role == GT_ADDR_RETURNED);
		} else if (c != GT_ADDR_NULL) {
			refs++;
			CHECK(c - ref_base <= GT_ADDR_WINDOW && c - ref_base <= block_len);
		}
		CHECK((c == GT_ADDR_NULL) == (a.addr == 0));
		CHECK(gt_addr_decode(h, c, delta, a.role, a.bytes, &got));
		if (got != a.addr) {
			fprintf(stderr, "address %zu: %#llx came back as %#llx\n", i,
				(unsigned long long)a.addr, (unsigned long long)got);
			check_failures++;
			break;
		}
		if (a.addr)
			block_len++;
	}
	CHECK(refs > RUN / 5);
	CHECK(news > RUN / 20);
	CHECK(from_freed > RUN / 10);
	CHECK(from_deep > RUN / 100);

	/* The same address again at once: a reference of 1; after a block start: new. */
	block_start();
	CHECK(code(0xabc0, GT_ADDR_PLAIN, 1) == GT_ADDR_NEW);
	CHECK(code(0xabc0, GT_ADDR_PLAIN, 1) == GT_ADDR_REF(1));
	CHECK(code(0xabd0, GT_ADDR_PLAIN, 1) == GT_ADDR_NEW);
	CHECK(code(0xabc0, GT_ADDR_PLAIN, 1) == GT_ADDR_REF(2));
	block_start();
	CHECK(code(0xabc0, GT_ADDR_PLAIN, 1) == GT_ADDR_NEW);

	/*
	 * A block freed and returned again for the same class: from its list.
	 * 24 and 16 bytes share glibc's 32-byte chunk; 40 does not.
	 */
	block_start();
	CHECK(code(0x5000, GT_ADDR_RETURNED, 24) == GT_ADDR_NEW);
	CHECK(code(0x5000, GT_ADDR_GIVEN_BACK, 1) == GT_ADDR_REF(1));
	CHECK(code(0x5000, GT_ADDR_RETURNED, 16) == GT_ADDR_FROM_FREED);
	CHECK(code(0x5000, GT_ADDR_GIVEN_BACK, 1) == GT_ADDR_REF(1));
	CHECK(code(0x5000, GT_ADDR_RETURNED, 40) == GT_ADDR_RETURNED_REF(1)); /* another class */
	/* ... a map call's result is no block returned */
	CHECK(code(0x6000, GT_ADDR_RETURNED, 24) == GT_ADDR_NEW);
	CHECK(code(0x6000, GT_ADDR_GIVEN_BACK, 1) == GT_ADDR_REF(1));
	CHECK(code(0x6000, GT_ADDR_PLAIN, 24) == GT_ADDR_REF(1));
	/* ... and a block freed without a known class goes on no list */
	CHECK(code(0x7000, GT_ADDR_GIVEN_BACK, 1) == GT_ADDR_NEW);
	CHECK(code(0x7000, GT_ADDR_RETURNED, 24) == GT_ADDR_RETURNED_REF(1));
	/* ... nor does one of a class sharing its list with another, once that one comes */
	unsigned c40 = gt_addr_class(40);
	uint64_t other = (uint64_t)(c40 + GT_ADDR_FREED_LISTS) * 16 - 8 - 15; /* its bytes */
	CHECK(gt_addr_class(other) == c40 + GT_ADDR_FREED_LISTS);
	CHECK(code(0x8000, GT_ADDR_RETURNED, 40) == GT_ADDR_NEW);
	CHECK(code(0x9000, GT_ADDR_RETURNED, other) == GT_ADDR_NEW);
	CHECK(code(0x8000, GT_ADDR_GIVEN_BACK, 1) == GT_ADDR_REF(2));
	CHECK(code(0x9000, GT_ADDR_GIVEN_BACK, 1) == GT_ADDR_REF(2));
	CHECK(code(0x8000, GT_ADDR_RETURNED, 40) == GT_ADDR_RETURNED_REF(2));
	CHECK(code(0x9000, GT_ADDR_RETURNED, other) == GT_ADDR_FROM_FREED);

	/*
	 * Blocks returned from below the last end of their list: at their
	 * place, counting only the blocks still there; a list holds
	 * GT_ADDR_FREED_DEPTH blocks, the ones given back last.
	 */
	block_start();
	for (uint64_t j = 0; j <= GT_ADDR_FREED_DEPTH; j++) /* 0xa000 is the oldest */
		CHECK(code(0xa000 + 0x100 * j, GT_ADDR_RETURNED, 24) == GT_ADDR_NEW);
	for (uint64_t j = 0; j <= GT_ADDR_FREED_DEPTH; j++)
		CHECK(code(0xa000 + 0x100 * j, GT_ADDR_GIVEN_BACK, 1) ==
		      GT_ADDR_REF(GT_ADDR_FREED_DEPTH + 1));
	CHECK(code(0xa000, GT_ADDR_RETURNED, 24) ==
	      GT_ADDR_RETURNED_REF(GT_ADDR_FREED_DEPTH + 1)); /* fell off */
	CHECK(code(0xa100, GT_ADDR_RETURNED, 24) == GT_ADDR_FROM_FREED + GT_ADDR_FREED_DEPTH - 1);
	CHECK(code(0xa300, GT_ADDR_RETURNED, 24) == GT_ADDR_FROM_FREED + GT_ADDR_FREED_DEPTH - 3);
	CHECK(code(0xa200, GT_ADDR_RETURNED, 24) == GT_ADDR_FROM_FREED + GT_ADDR_FREED_DEPTH - 3);
	CHECK(code(0xa000 + 0x100 * GT_ADDR_FREED_DEPTH, GT_ADDR_RETURNED, 24) ==
	      GT_ADDR_FROM_FREED);
	CHECK(code(0xa400, GT_ADDR_RETURNED, 40) != GT_ADDR_FROM_FREED); /* another class */

	/* A reference reaches GT_ADDR_WINDOW addresses back, not one more. */
	block_start();
	CHECK(code(0x100000, GT_ADDR_PLAIN, 1) == GT_ADDR_NEW);
	for (uint64_t j = 1; j < GT_ADDR_WINDOW; j++)
		code(0x200000 + 16 * j, GT_ADDR_PLAIN, 1);
	CHECK(code(0x100000, GT_ADDR_PLAIN, 1) == GT_ADDR_REF(GT_ADDR_WINDOW));
	for (uint64_t j = 0; j < GT_ADDR_WINDOW; j++)
		code(0x300000 + 16 * j, GT_ADDR_PLAIN, 1);
	CHECK(code(0x100000, GT_ADDR_PLAIN, 1) == GT_ADDR_NEW);

	/* A reader refuses what no block can hold. */
	uint64_t got;
	gt_addr_history_reset(h, GT_FORMAT_MAJOR);
	CHECK(!gt_addr_decode(h, GT_ADDR_REF(1), 0, GT_ADDR_PLAIN, 1, &got));
	CHECK(!gt_addr_decode(h, GT_ADDR_FROM_FREED, 0, GT_ADDR_RETURNED, 24, &got));
	CHECK(gt_addr_decode(h, GT_ADDR_NEW, 0x40, GT_ADDR_RETURNED, 24, &got) && got == 0x40);
	CHECK(gt_addr_decode(h, GT_ADDR_REF(1), 0, GT_ADDR_GIVEN_BACK, 1, &got) && got == 0x40);
	CHECK(!gt_addr_decode(h, GT_ADDR_FROM_FREED, 0, GT_ADDR_GIVEN_BACK, 1, &got));
	CHECK(!gt_addr_decode(h, GT_ADDR_FROM_FREED, 0, GT_ADDR_RETURNED, 40, &got));
	CHECK(!gt_addr_decode(h, GT_ADDR_FROM_FREED + 1, 0, GT_ADDR_RETURNED, 24, &got));
	CHECK(gt_addr_decode(h, GT_ADDR_FROM_FREED, 0, GT_ADDR_RETURNED, 24, &got) && got == 0x40);
	CHECK(!gt_addr_decode(h, GT_ADDR_REF(4), 0, GT_ADDR_PLAIN, 1, &got));

	/*
	 * A 3.x block: a list gives only its last block, and a reference to a
	 * block returned is coded as any other.
	 */
	gt_addr_history_reset(h, 3);
	CHECK(gt_addr_decode(h, GT_ADDR_NEW, 0x40, GT_ADDR_RETURNED, 24, &got) && got == 0x40);
	CHECK(gt_addr_decode(h, GT_ADDR_NEW, 0x40, GT_ADDR_RETURNED, 24, &got) && got == 0x80);
	CHECK(gt_addr_decode(h, GT_ADDR_REF(2), 0, GT_ADDR_GIVEN_BACK, 1, &got) && got == 0x40);
	CHECK(gt_addr_decode(h, GT_ADDR_REF(2), 0, GT_ADDR_GIVEN_BACK, 1, &got) && got == 0x80);
	/* (in 4.x, GT_ADDR_FROM_FREED + 1: 0x40) */
	CHECK(gt_addr_decode(h, GT_ADDR_REF(1), 0, GT_ADDR_RETURNED, 24, &got) && got == 0x80);
	CHECK(gt_addr_decode(h, GT_ADDR_FROM_FREED, 0, GT_ADDR_RETURNED, 24, &got) && got == 0x80);
	CHECK(gt_addr_decode(h, GT_ADDR_FROM_FREED, 0, GT_ADDR_RETURNED, 24, &got) && got == 0x40);
	/* ... and a 3.x list holds 8: the 9th given back pushes the 1st off. */
	gt_addr_history_reset(h, 3);
	for (uint64_t j = 0; j <= GT_ADDR_FREED_DEPTH_3; j++)
		CHECK(gt_addr_decode(h, GT_ADDR_NEW, 0x100, GT_ADDR_RETURNED, 24, &got));
	for (uint64_t j = 0; j <= GT_ADDR_FREED_DEPTH_3; j++)
		CHECK(gt_addr_decode(h, GT_ADDR_REF(GT_ADDR_FREED_DEPTH_3 + 1), 0,
				     GT_ADDR_GIVEN_BACK, 1, &got) &&
		      got == 0x100 * (j + 1));
	for (uint64_t j = GT_ADDR_FREED_DEPTH_3; j >= 1; j--)
		CHECK(gt_addr_decode(h, GT_ADDR_FROM_FREED, 0, GT_ADDR_RETURNED, 24, &got) &&
		      got == 0x100 * (j + 1));
	CHECK(!gt_addr_decode(h, GT_ADDR_FROM_FREED, 0, GT_ADDR_RETURNED, 24, &got));
	free(mirror);
	free(h);
	return check_result("addr_refs");
}
