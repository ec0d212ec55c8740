/*
 * Unit test: the times the reader gives a block's CALLs (call_times.c). In
 * a 3.1 or later block of one thread, untimed calls carry no time (in 4.x
 * not even an entry) and are placed evenly between the end of the timed
 * call before them and the start of the one after (format.h, CALL); in any
 * other block each call's dts is what it carries. The calls are fed as
 * records.c feeds them: token and time entry read, the cursors just past
 * them.
 */
#include "../check.h"
#include "call_times.h"

#include <stdint.h>

/* One entry of a test block: a CALL, or (thread != 0) a THREAD record. */
struct entry {
	int timed;
	int64_t units; /* its time entry */
	uint64_t dur_ns;
	int thread;
};

#define MAX_ENTRIES 16

/*
 * The times (ns from base_ns) the reader gives the block's first `feed`
 * entries' calls, with the last cut_times bytes of the time column lost.
 */
static int times_of(uint16_t major, uint16_t minor, uint32_t shift, const struct entry *e, int n,
		    int feed, int cut_times, uint64_t *got)
{
	uint8_t records[MAX_ENTRIES * 4], times[MAX_ENTRIES * GT_UV_MAX];
	uint8_t *r = records, *t = times;
	for (int i = 0; i < n; i++) {
		if (e[i].thread) {
			*r++ = GT_REC_THREAD;
			*r++ = 2;
			*r++ = 1;
			*r++ = 7;
			continue;
		}
		*r++ = (uint8_t)(GT_CALL_TOKEN | (e[i].timed ? GT_CALL_TIMED : 0) | GT_FN_MALLOC);
		if (e[i].timed || major < 4 || !shift)
			t = gt_put_uv(t, gt_zigzag(e[i].units));
	}
	struct gt_block b = {.h = {.major = major, .minor = minor, .time_shift = shift}};
	struct gt_call_times ct;
	gt_call_times_init(&ct, &b);
	struct gt_cursor rc = {records, r, 1}, tc = {times, t - cut_times, 1};
	uint64_t now = 0;
	int calls = 0;
	for (int i = 0; i < feed; i++) {
		uint8_t tag = *rc.p++;
		if (!(tag & GT_CALL_TOKEN)) {
			rc.p += 1 + rc.p[0];
			continue;
		}
		int64_t units = gt_call_times_has_dts(&ct, e[i].timed) ? gt_get_sv(&tc) : 0;
		now += (uint64_t)gt_call_times_dts(&ct, e[i].timed, units, e[i].dur_ns, &rc, &tc);
		got[calls++] = now;
	}
	return calls;
}

#define U(units)                                                                                   \
	{                                                                                          \
		0, units, 0, 0                                                                     \
	}
#define T(units, dur_ns)                                                                           \
	{                                                                                          \
		1, units, dur_ns, 0                                                                \
	}
#define THREAD                                                                                     \
	{                                                                                          \
		0, 0, 0, 1                                                                         \
	}

static const struct entry block[] = {
	U(0), U(0), T(10, 500), U(0), THREAD, U(0), U(0), T(4, 100), U(0), U(0),
};
#define BLOCK_LEN ((int)(sizeof(block) / sizeof(*block)))

static void check_times(const char *what, const uint64_t *got, int n, const uint64_t *want,
			int want_n)
{
	CHECK(n == want_n);
	for (int i = 0; i < n && i < want_n; i++)
		if (got[i] != want[i]) {
			fprintf(stderr, "%s: call %d at %llu ns, want %llu\n", what, i,
				(unsigned long long)got[i], (unsigned long long)want[i]);
			check_failures++;
		}
}

int main(void)
{
	uint64_t got[MAX_ENTRIES];

	/*
	 * 3.1, one thread (units of 1024 ns): the first two from base_ns to the
	 * first timed start (10240), three between its end (10740, rounded down
	 * to the unit as starts are: 10240) and the next start (14336), the last
	 * two at that one's end (14436, rounded down: 14336).
	 */
	const uint64_t placed[] = {3413, 6826, 10240, 11264, 12288, 13312, 14336, 14336, 14336};
	int n = times_of(3, 1, 10, block, BLOCK_LEN, BLOCK_LEN, 0, got);
	check_times("3.1, one thread", got, n, placed, 9);
	n = times_of(4, 0, 10, block, BLOCK_LEN, BLOCK_LEN, 0, got); /* no untimed entries */
	check_times("4.0, one thread", got, n, placed, 9);

	/* 3.0, and a block of several threads: each call at the time it carries. */
	const uint64_t carried[] = {0, 0, 10240, 10240, 10240, 10240, 14336, 14336, 14336};
	n = times_of(3, 0, 10, block, BLOCK_LEN, BLOCK_LEN, 0, got);
	check_times("3.0", got, n, carried, 9);
	const uint64_t carried_ns[] = {0, 0, 10, 10, 10, 10, 14, 14, 14};
	n = times_of(3, 1, 0, block, BLOCK_LEN, BLOCK_LEN, 0, got);
	check_times("3.1, several threads", got, n, carried_ns, 9);
	n = times_of(4, 0, 0, block, BLOCK_LEN, BLOCK_LEN, 0, got);
	check_times("4.0, several threads", got, n, carried_ns, 9);

	/*
	 * A call that seems to end (1024 + 5000) after the next one starts
	 * (2048), as a damaged trace may say: the untimed call between them
	 * goes at that start, so times never run backwards.
	 */
	const struct entry overlapping[] = {T(1, 5000), U(0), T(1, 10)};
	const uint64_t at_start[] = {1024, 2048, 2048};
	n = times_of(3, 1, 10, overlapping, 3, 3, 0, got);
	check_times("overlapping calls", got, n, at_start, 3);

	/*
	 * A time column cut short (records.c then reports the block corrupt):
	 * an untimed call before the lost entry stays at the last end.
	 */
	const struct entry cut[] = {T(1, 1100), U(0), T(3, 10)};
	const uint64_t at_end[] = {1024, 2048};
	n = times_of(3, 1, 10, cut, 3, 2, 1, got);
	check_times("cut time column", got, n, at_end, 2);
	n = times_of(4, 0, 10, cut, 3, 2, 1, got);
	check_times("cut time column, 4.0", got, n, at_end, 2);
	return check_result("call_times");
}
