/*
 * Unit test: the heap's counters per stack id (heap.c). Ids far beyond the
 * stacks seen (exotic input) go to a hash table instead of sizing the dense
 * array by the id; an id kept there keeps one set of counters even once
 * the stacks seen reach it and new ids of its size go to the array.
 */
#include "../check.h"
#include "heap.h"

static struct gt_heap h;
static struct gt_heap_thread th;

/* The counters of stack id, NULL if the heap has none. */
static const struct gt_stack_counts *counters(uint64_t id)
{
	const struct gt_stack_counts *found = NULL;
	for (size_t i = 0; i < h.nstacks; i++)
		if (h.stacks[i].stack == id) {
			CHECK(!found); /* one set of counters per id */
			found = &h.stacks[i];
		}
	return found;
}

int main(void)
{
	gt_heap_init(&h);
	uint64_t ptr = 0x1000;
	const uint64_t far = 5000, huge = (1u << 20) - 1;
	gt_heap_alloc(&h, &th, ptr += 0x10, 8, far, 0, 1);
	gt_heap_alloc(&h, &th, ptr += 0x10, 8, huge, 0, 1);
	/* one allocation did not size the array */
	CHECK(h.dense_cap < far);
	/* the stacks seen reach far */
	for (uint64_t id = 1; id <= 3000; id++)
		gt_heap_alloc(&h, &th, ptr += 0x10, 8, id, 0, 1);
	gt_heap_alloc(&h, &th, ptr += 0x10, 16, far, 0, 1);
	gt_heap_alloc(&h, &th, ptr += 0x10, 8, far + 1, 0, 1);
	const struct gt_stack_counts *f = counters(far);
	CHECK(f && f->allocations == 2 && f->bytes == 24);
	CHECK(counters(far + 1) && counters(far + 1)->allocations == 1);
	CHECK(counters(huge) && counters(huge)->allocations == 1);
	CHECK(h.nstacks == 3003);
	gt_heap_release(&h);
	return check_result("heap_stack_ids");
}
