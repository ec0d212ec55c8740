/*
 * Heap accounting for one process image, fed in call order: live
 * allocations, bytes, peak, temporary allocations, lifetimes, sizes,
 * leaks, and per-stack counters for naming call sites. Memory grows with
 * live allocations and distinct stacks only.
 */
#ifndef GT_HEAP_H
#define GT_HEAP_H

#include <stdint.h>
#include <uthash.h>

/* Lifetime buckets: < 1 µs, < 10 µs, … < 1 s, >= 1 s. */
#define GT_LIFETIME_BUCKETS 8
/* Size buckets: bucket b holds sizes in (2^(b-1), 2^b]; 0 and 1 in bucket 0. */
#define GT_SIZE_BUCKETS 65

struct gt_alloc;

/* Counters of one stack id (the stack of the allocating call). */
struct gt_stack_counts {
	uint64_t stack; /* key */
	uint64_t allocations, bytes, temporary, leaked_allocations, leaked_bytes;
	UT_hash_handle hh;
};

/* Per-thread state the heap needs: allocations made so far by the thread. */
struct gt_heap_thread {
	uint64_t serial;
	uint64_t allocations;
};

struct gt_heap {
	struct gt_alloc *live;
	struct gt_alloc *displaced;	/* live blocks whose address was handed out again */
	struct gt_alloc *spare;		/* freed entries kept for reuse */
	struct gt_stack_counts *stacks; /* uthash by stack */
	uint64_t allocations, allocated_bytes, frees, untracked_frees, temporary;
	uint64_t current_bytes, peak_bytes, peak_ns, live_count;
	uint64_t lifetime[GT_LIFETIME_BUCKETS];
	uint64_t sizes[GT_SIZE_BUCKETS];
	uint64_t leaked_allocations, leaked_bytes;
};

void gt_heap_init(struct gt_heap *h);

/*
 * An allocation of size bytes at ptr (non-zero) by thread th, started at t
 * and returned at end. If ptr is still live, the other thread's free that
 * made room has not been appended yet (format.h): the old block is kept
 * aside until a free that started before this allocation ended claims it.
 */
void gt_heap_alloc(struct gt_heap *h, struct gt_heap_thread *th, uint64_t ptr, uint64_t size,
		   uint64_t stack, uint64_t t, uint64_t end);

/*
 * A free of ptr (non-zero) by thread th started at time t. A pointer never seen
 * allocated (allocated before tracing began, or in a fork's parent) only
 * counts as an untracked free.
 */
void gt_heap_free(struct gt_heap *h, struct gt_heap_thread *th, uint64_t ptr, uint64_t t);

/* Counts what is still live as leaked (call once, at the end). */
void gt_heap_finish(struct gt_heap *h);

/* The counters of a stack id, or NULL if it never allocated. */
const struct gt_stack_counts *gt_heap_stack(const struct gt_heap *h, uint64_t stack);

/* Iteration over all stack counters: first, then next until NULL. */
const struct gt_stack_counts *gt_heap_stacks_first(const struct gt_heap *h);
const struct gt_stack_counts *gt_heap_stacks_next(const struct gt_stack_counts *s);

void gt_heap_release(struct gt_heap *h);

#endif /* GT_HEAP_H */
