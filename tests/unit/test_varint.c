/*
 * Unit test: ULEB128/zigzag edge cases of format.h as the reader uses
 * them — round trips at the boundaries, overlong and truncated input —
 * and the entries of new addresses built on them.
 */
#include "../check.h"
#include "gittrace/format.h"

static uint64_t roundtrip(uint64_t v, size_t *len)
{
	uint8_t buf[GT_UV_MAX];
	uint8_t *end = gt_put_uv(buf, v);
	*len = (size_t)(end - buf);
	struct gt_cursor c = {buf, end, 1};
	uint64_t got = gt_get_uv(&c);
	CHECK(c.ok && c.p == end);
	return got;
}

int main(void)
{
	const uint64_t values[] = {0,	      1, 127, 128, 16383, 16384, UINT32_MAX, UINT64_MAX - 1,
				   UINT64_MAX};
	const size_t lens[] = {1, 1, 1, 2, 2, 3, 5, 10, 10};
	for (size_t i = 0; i < sizeof(values) / sizeof(*values); i++) {
		size_t len;
		CHECK(roundtrip(values[i], &len) == values[i]);
		CHECK(len == lens[i]);
	}
	const int64_t svals[] = {0, -1, 1, INT64_MIN, INT64_MAX};
	for (size_t i = 0; i < 5; i++)
		CHECK(gt_unzigzag(gt_zigzag(svals[i])) == svals[i]);
	CHECK(gt_zigzag(-1) == 1 && gt_zigzag(1) == 2);

	/* Truncated: continuation bit on the last byte. */
	uint8_t trunc[] = {0x80, 0x80};
	struct gt_cursor c = {trunc, trunc + 2, 1};
	gt_get_uv(&c);
	CHECK(!c.ok);
	/* Overlong: 11 continuation bytes. */
	uint8_t longer[11] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80};
	c = (struct gt_cursor){longer, longer + 11, 1};
	gt_get_uv(&c);
	CHECK(!c.ok);
	/* A string longer than what is left. */
	uint8_t str[] = {5, 'a', 'b'};
	size_t n;
	c = (struct gt_cursor){str, str + 3, 1};
	CHECK(gt_get_str(&c, &n) == NULL && !c.ok && n == 0);

	/*
	 * New addresses' differences (4.x): whole at any value, aligned ones
	 * in one entry a byte shorter, an odd entry but 1 refused.
	 */
	const int64_t deltas[] = {0,
				  16,
				  -16,
				  1,
				  -1,
				  8,
				  0x1000,
				  -0x7f0000001000,
				  0x7f0000001000,
				  INT64_MAX,
				  INT64_MIN,
				  INT64_MIN + 16,
				  INT64_MAX - 15};
	for (size_t i = 0; i < sizeof(deltas) / sizeof(*deltas); i++) {
		uint8_t buf[2 * GT_UV_MAX];
		uint8_t *end = gt_put_new_addr(buf, deltas[i]);
		c = (struct gt_cursor){buf, end, 1};
		int64_t got;
		CHECK(gt_get_new_addr(&c, &got) && got == deltas[i] && c.ok && c.p == end);
	}
	uint8_t aligned[2 * GT_UV_MAX];
	CHECK(gt_put_new_addr(aligned, 0x7f00) - aligned == 2); /* sv 0x7f00 takes 3 */
	uint8_t odd[] = {3};
	c = (struct gt_cursor){odd, odd + 1, 1};
	int64_t got;
	CHECK(!gt_get_new_addr(&c, &got));
	return check_result("test_varint");
}
