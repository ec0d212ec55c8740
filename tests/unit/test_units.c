/*
 * Unit test: bytes and seconds as the reports write them (units.h).
 */
#include "../check.h"
#include "units.h"

static const char *bytes(uint64_t n)
{
	static char buf[32];
	gt_format_bytes(buf, sizeof(buf), n);
	return buf;
}

int main(void)
{
	CHECK_STR(bytes(0), "0 B");
	CHECK_STR(bytes(1023), "1023 B");
	CHECK_STR(bytes(1024), "1 KiB");
	CHECK_STR(bytes(1536), "1.5 KiB");
	CHECK_STR(bytes(128ull << 20), "128 MiB");
	CHECK_STR(bytes(3ull << 29), "1.5 GiB");

	/* From 10 ms up, and 0, as the reports always wrote them. */
	CHECK_STR(gt_format_seconds(0).text, "0.000 s");
	CHECK_STR(gt_format_seconds(2.3151).text, "2.315 s");
	CHECK_STR(gt_format_seconds(0.01).text, "0.010 s");
	/* Below, a unit that keeps the digits "0.000 s" lost. */
	CHECK_STR(gt_format_seconds(0.0042).text, "4.2 ms");
	CHECK_STR(gt_format_seconds(0.001).text, "1.0 ms");
	CHECK_STR(gt_format_seconds(0.00038).text, "380 µs");
	CHECK_STR(gt_format_seconds(0.000001).text, "1 µs");
	CHECK_STR(gt_format_seconds(95e-9).text, "95 ns");
	return check_result("test_units");
}
