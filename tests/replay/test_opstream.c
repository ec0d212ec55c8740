/*
 * gt_opstream on made-up calls: slots taken and given back last-freed
 * first, realloc keeping its slot, the waits a cross-thread free and a
 * slot reused across threads need, the race of format.h (an address handed
 * out again before the other thread's free was appended), and the calls
 * that cannot be replayed as recorded. The ops are read back with ops.h's
 * decoder.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../check.h"
#include "opstream.h"

#define NONE GT_REPLAY_NONE

static struct gt_opstream o;
static FILE *out;

static void call(uint64_t serial, uint8_t fn, uint64_t t, uint64_t ptr, uint64_t size,
		 uint64_t result)
{
	struct gt_rec_call c = {.fn = fn, .dur_ns = 10, .ptr = ptr, .size = size, .result = result};
	gt_opstream_call(&o, serial, &c, t, out, "memory");
}

/* What each op must be: function, thread, slot, ref, wait thread and index. */
struct want {
	uint8_t fn;
	uint32_t thread, slot, ref, wait_thread;
	uint64_t wait_index;
};

int main(void)
{
	char *buf = NULL;
	size_t len = 0;
	out = open_memstream(&buf, &len);
	gt_opstream_init(&o);

	call(1, GT_FN_MALLOC, 0, 0, 100, 0x1000);	 /* 0: T1 */
	call(2, GT_FN_FREE, 100, 0x1000, 0, 0);		 /* 1: T2 frees T1's block: waits */
	call(2, GT_FN_MALLOC, 110, 0, 50, 0x1000);	 /* 2: slot 0 again, T2's own */
	call(1, GT_FN_MALLOC, 200, 0, 30, 0x2000);	 /* 3: slot 1 */
	call(1, GT_FN_MALLOC, 306, 0, 30, 0x2000);	 /* 4: same address, still live: slot 2 */
	call(2, GT_FN_FREE, 300, 0x2000, 0, 0);		 /* 5: started before 4 ended: slot 1 */
	call(1, GT_FN_FREE, 400, 0x2000, 0, 0);		 /* 6: slot 2 */
	call(1, GT_FN_REALLOC, 500, 0, 10, 0x3000);	 /* 7: slot 2 (last freed) */
	call(1, GT_FN_REALLOC, 510, 0x3000, 20, 0x3100); /* 8: keeps slot 2 */
	call(1, GT_FN_REALLOC, 520, 0x3100, 0, 0);	 /* 9: realloc(p, 0) freed it */
	call(1, GT_FN_MALLOC, 530, 0, 8, 0x5000);	 /* 10: slot 2 */
	call(1, GT_FN_MALLOC, 540, 0, 8, 0x5100);	 /* 11: slot 1, given back by T2: waits */
	call(2, GT_FN_FREE, 550, 0, 0, 0);		 /* 12: free(NULL) */
	call(2, GT_FN_FREE, 560, 0x9999, 0, 0);		 /* never allocated: no op */
	call(2, GT_FN_REALLOC, 570, 0x8888, 10, 0x4000); /* 13: as realloc(NULL, 10) */
	struct gt_rec_call failed = {
		.fn = GT_FN_POSIX_MEMALIGN, .align = 64, .size = 100, .ret = 12};
	gt_opstream_call(&o, 2, &failed, 580, out, "memory"); /* 14: no block */
	struct gt_rec_call zeroed = {.fn = GT_FN_CALLOC, .nmemb = 3, .size = 40, .result = 0x6000};
	gt_opstream_call(&o, 2, &zeroed, 590, out, "memory"); /* 15: slot 3 */
	fclose(out);

	static const struct want want[] = {
		{GT_FN_MALLOC, 0, 0, NONE, NONE, 0},
		{GT_FN_FREE, 1, NONE, 0, 0, 0},
		{GT_FN_MALLOC, 1, 0, NONE, NONE, 0},
		{GT_FN_MALLOC, 0, 1, NONE, NONE, 0},
		{GT_FN_MALLOC, 0, 2, NONE, NONE, 0},
		{GT_FN_FREE, 1, NONE, 1, 0, 1},
		{GT_FN_FREE, 0, NONE, 2, NONE, 0},
		{GT_FN_REALLOC, 0, 2, NONE, NONE, 0},
		{GT_FN_REALLOC, 0, 2, 2, NONE, 0},
		{GT_FN_REALLOC, 0, NONE, 2, NONE, 0},
		{GT_FN_MALLOC, 0, 2, NONE, NONE, 0},
		{GT_FN_MALLOC, 0, 1, NONE, 1, 2},
		{GT_FN_FREE, 1, NONE, NONE, NONE, 0},
		{GT_FN_REALLOC, 1, 3, NONE, NONE, 0},
		{GT_FN_POSIX_MEMALIGN, 1, NONE, NONE, NONE, 0},
		{GT_FN_CALLOC, 1, 4, NONE, NONE, 0},
	};
	size_t n = sizeof(want) / sizeof(want[0]);
	CHECK(o.h.ops == n && o.h.threads == 2 && o.h.slots == 5);
	CHECK(o.h.calls[GT_FN_MALLOC] == 6 && o.h.calls[GT_FN_FREE] == 4);
	CHECK(o.h.calls[GT_FN_REALLOC] == 4 && o.h.calls[GT_FN_POSIX_MEMALIGN] == 1);
	CHECK(o.untracked_frees == 1 && o.untracked_reallocs == 1);

	const uint8_t *p = (const uint8_t *)buf, *end = p + len;
	for (size_t i = 0; i < n; i++) {
		struct gt_replay_op op;
		if (!gt_replay_op_decode(&p, end, &op)) {
			CHECK(!"op decodes");
			break;
		}
		const struct want *w = &want[i];
		if (op.fn != w->fn || op.thread != w->thread || op.slot != w->slot ||
		    op.ref != w->ref || op.wait_thread != w->wait_thread ||
		    (w->wait_thread != NONE && op.wait_index != w->wait_index)) {
			fprintf(stderr,
				"op %zu: fn %u thread %u slot %u ref %u wait %u/%llu, want fn %u "
				"thread "
				"%u slot %u ref %u wait %u/%llu\n",
				i, op.fn, op.thread, op.slot, op.ref, op.wait_thread,
				(unsigned long long)op.wait_index, w->fn, w->thread, w->slot,
				w->ref, w->wait_thread, (unsigned long long)w->wait_index);
			check_failures++;
		}
		if (i == 8)
			CHECK(op.old == 10 && op.size == 20); /* the replayer touches what grew */
		if (i == 14)
			CHECK(op.arg == 64);
		if (i == 15)
			CHECK(op.arg == 3 && op.size == 40);
	}
	CHECK(p == end);
	gt_opstream_release(&o);
	free(buf);
	return check_result("replay opstream");
}
