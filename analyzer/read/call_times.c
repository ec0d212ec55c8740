/*
 * Placing untimed calls between timed ones. See call_times.h.
 */
#include "call_times.h"

#include <string.h>

void gt_call_times_init(struct gt_call_times *t, const struct gt_block *b)
{
	memset(t, 0, sizeof(*t));
	t->shift = b->h.major >= 2 ? b->h.time_shift : 0;
	t->between = t->shift > 0 && (b->h.major > 3 || (b->h.major == 3 && b->h.minor >= 1));
	t->untimed_dts = !t->between || b->h.major == 3;
}

/*
 * Counts the untimed calls from this one to the next timed call and finds
 * where that one starts. Without one (the block ends first, or its bytes
 * are damaged, which decoding them will report), the run stays at the
 * previous timed call's end.
 */
static void find_run(struct gt_call_times *t, const struct gt_cursor *records_now,
		     const struct gt_cursor *times_now)
{
	struct gt_cursor records = *records_now, times = *times_now;
	t->run = 1;
	t->placed = 0;
	t->right = t->left;
	while (records.p < records.end) {
		uint8_t tag = *records.p++;
		if (!(tag & GT_CALL_TOKEN)) { /* another record, whole: skipped */
			uint64_t len = gt_get_uv(&records);
			if (!records.ok || len > (uint64_t)(records.end - records.p))
				return;
			records.p += len;
			continue;
		}
		if (!(tag & GT_CALL_TIMED)) {
			t->run++;
			continue;
		}
		for (uint32_t i = 1; t->untimed_dts && i < t->run; i++)
			gt_get_uv(&times); /* the untimed calls' entries */
		uint64_t start = t->written + ((uint64_t)gt_get_sv(&times) << t->shift);
		if (!times.ok || start < t->written)
			return;
		/* A damaged trace may end a call after the next starts: times still run forward. */
		t->right = start;
		if (t->left > start)
			t->left = start;
		return;
	}
}

int64_t gt_call_times_dts(struct gt_call_times *t, int timed, int64_t units, uint64_t dur_ns,
			  const struct gt_cursor *records, const struct gt_cursor *times)
{
	uint64_t dts = (uint64_t)units << t->shift;
	if (!t->between)
		return (int64_t)dts;
	uint64_t now;
	if (timed) {
		now = t->written += dts;
		/*
		 * Its end in the block's unit, rounded down as starts are: the
		 * next block's base_ns, a reading after it, may be no later.
		 */
		t->left = (now + dur_ns) >> t->shift << t->shift;
		t->run = t->placed = 0;
	} else {
		if (t->placed == t->run) {
			find_run(t, records, times);
			t->step = (double)(t->right - t->left) / (t->run + 1);
		}
		t->placed++;
		now = t->left + (uint64_t)(t->step * t->placed);
	}
	int64_t given = (int64_t)(now - t->given);
	t->given = now;
	return given;
}
