/*
 * Unit test: the heap's size histogram (heap.h, sizes[]): bucket b counts
 * the allocations of more than 2^(b-1) bytes and at most 2^b (0 and 1 byte
 * in bucket 0), at every power of two and either side of it.
 */
#include "../check.h"
#include "heap.h"

static struct gt_heap h;
static struct gt_heap_thread th;

int main(void)
{
	gt_heap_init(&h);
	uint64_t ptr = 0x1000, want[GT_SIZE_BUCKETS] = {0};
	for (unsigned b = 0; b < 64; b++) {
		uint64_t power = (uint64_t)1 << b;
		const uint64_t sizes[] = {power - 1, power, power + 1};
		for (int i = 0; i < 3; i++) {
			gt_heap_alloc(&h, &th, ptr, sizes[i], 1, ptr, ptr + 1);
			ptr += 0x10;
			uint64_t s = sizes[i];
			unsigned bucket = 0; /* the least with 2^bucket >= s, counted up */
			while (bucket < 64 && ((uint64_t)1 << bucket) < s)
				bucket++;
			want[bucket]++;
		}
	}
	gt_heap_alloc(&h, &th, ptr, UINT64_MAX, 1, ptr, ptr + 1);
	want[64]++;
	CHECK(want[0] == 3 && want[1] == 2 && want[64] == 2); /* 0, 1, 1; 2, 2; 2^63 + 1, max */
	for (int b = 0; b < GT_SIZE_BUCKETS; b++)
		if (h.sizes[b] != want[b]) {
			fprintf(stderr, "bucket %d: %llu allocations, want %llu\n", b,
				(unsigned long long)h.sizes[b], (unsigned long long)want[b]);
			check_failures++;
		}
	gt_heap_release(&h);
	return check_result("heap_sizes");
}
