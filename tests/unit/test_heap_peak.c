/*
 * Unit test: each stack's bytes live at the heap's peak (heap.h,
 * gt_stack_counts.at_peak_bytes), taken without a copy at each new peak:
 * a stack untouched since a peak, one changed after it, a later and higher
 * peak, a peak that stays the highest while the heap shrinks and grows
 * again, and blocks set aside by the race rule.
 */
#include "../check.h"
#include "heap.h"

static struct gt_heap h;
static struct gt_heap_thread th;
static uint64_t now = 1000;

static void alloc(uint64_t ptr, uint64_t size, uint64_t stack)
{
	gt_heap_alloc(&h, &th, ptr, size, stack, now, now + 10);
	now += 100;
}

static void release(uint64_t ptr)
{
	gt_heap_free(&h, &th, ptr, now);
	now += 100;
}

static uint64_t at_peak(uint64_t stack)
{
	for (size_t i = 0; i < h.nstacks; i++)
		if (h.stacks[i].stack == stack)
			return h.stacks[i].at_peak_bytes;
	return (uint64_t)-1;
}

static uint64_t sum_at_peak(void)
{
	uint64_t sum = 0;
	for (size_t i = 0; i < h.nstacks; i++)
		sum += h.stacks[i].at_peak_bytes;
	return sum;
}

int main(void)
{
	/* Peak 150 after the second allocation; stack 1 changes after it. */
	gt_heap_init(&h);
	alloc(0x1000, 100, 1);
	alloc(0x2000, 50, 2);
	release(0x1000);
	alloc(0x3000, 30, 3);
	gt_heap_finish(&h);
	CHECK(h.peak_bytes == 150);
	CHECK(at_peak(1) == 100);
	CHECK(at_peak(2) == 50);
	CHECK(at_peak(3) == 0);
	gt_heap_release(&h);

	/* A later, higher peak replaces the first: 100 + 50, then 50 + 120. */
	gt_heap_init(&h);
	alloc(0x1000, 100, 1);
	alloc(0x2000, 50, 2);
	release(0x1000);
	alloc(0x3000, 120, 3);
	release(0x2000);
	gt_heap_finish(&h);
	CHECK(h.peak_bytes == 170);
	CHECK(at_peak(1) == 0);
	CHECK(at_peak(2) == 50);
	CHECK(at_peak(3) == 120);
	gt_heap_release(&h);

	/*
	 * The heap shrinks and grows again to just below its peak: the peak's
	 * figures stay, though every stack changed since. Stack 1 holds two
	 * blocks at the peak.
	 */
	gt_heap_init(&h);
	alloc(0x1000, 60, 1);
	alloc(0x1100, 40, 1);
	alloc(0x2000, 80, 2); /* peak: 180 */
	release(0x1000);
	release(0x2000);
	alloc(0x3000, 130, 2); /* 170 */
	alloc(0x4000, 5, 3);   /* 175 */
	gt_heap_finish(&h);
	CHECK(h.peak_bytes == 180);
	CHECK(at_peak(1) == 100);
	CHECK(at_peak(2) == 80);
	CHECK(at_peak(3) == 0);
	CHECK(sum_at_peak() == h.peak_bytes);
	gt_heap_release(&h);

	/*
	 * The race rule: an allocation at a live address (its free by another
	 * thread not appended yet) sets the old block aside; both count at
	 * the peak, and the late free takes the old one.
	 */
	gt_heap_init(&h);
	alloc(0x1000, 64, 1);
	alloc(0x1000, 32, 2);			  /* 96: the peak */
	gt_heap_free(&h, &th, 0x1000, now - 150); /* started before the second ended */
	gt_heap_finish(&h);
	CHECK(h.peak_bytes == 96);
	CHECK(at_peak(1) == 64);
	CHECK(at_peak(2) == 32);
	CHECK(h.current_bytes == 32);
	gt_heap_release(&h);
	return check_result("heap_peak");
}
