/*
 * Heap accounting for one process image, fed in call order: live
 * allocations, bytes, peak, temporary allocations, lifetimes, sizes,
 * leaks, and per-stack counters for naming call sites. Memory grows with
 * live allocations and distinct stacks only.
 */
#ifndef GT_HEAP_H
#define GT_HEAP_H

#include <stddef.h>
#include <stdint.h>

#include "ptrmap.h"

/* Lifetime buckets: < 1 µs, < 10 µs, … < 1 s, >= 1 s. */
#define GT_LIFETIME_BUCKETS 8
/* Size buckets: bucket b holds sizes in (2^(b-1), 2^b]; 0 and 1 in bucket 0. */
#define GT_SIZE_BUCKETS 65

/* Counters of one stack id (the stack of the allocating call). */
struct gt_stack_counts {
	uint64_t stack; /* key */
	uint64_t allocations, bytes, temporary, leaked_allocations, leaked_bytes;
	uint64_t live_bytes; /* its blocks live now */
	/*
	 * Its blocks live at the heap's peak (peak_bytes): taken when the
	 * stack's live bytes first change after a new peak (peak_seen, the
	 * heap's peak_gen then), so that a new peak costs nothing; final
	 * after gt_heap_finish.
	 */
	uint64_t at_peak_bytes, peak_seen;
};

struct gt_stack_index; /* stack ids too large for the dense index */

/* Per-thread state the heap needs: the thread's latest allocation, still
 * live and not followed by another allocation in the thread (0 if none). */
struct gt_heap_thread {
	uint64_t serial;
	uint64_t last_ptr;
};

struct gt_heap {
	struct gt_ptrmap live;
	struct gt_ptrmap displaced;	/* live blocks whose address was handed out again */
	struct gt_stack_counts *stacks; /* in order of first use */
	size_t nstacks, stacks_cap;
	uint32_t *dense; /* stack id -> index + 1, for ids below GT_DENSE_STACK_IDS */
	size_t dense_cap;
	struct gt_stack_index *sparse; /* uthash for larger ids */
	uint64_t allocations, allocated_bytes, untracked_frees, temporary;
	uint64_t current_bytes, peak_bytes, peak_ns;
	uint64_t peak_gen; /* new peaks so far (see gt_stack_counts.peak_seen) */
	uint64_t lifetime[GT_LIFETIME_BUCKETS];
	uint64_t sizes[GT_SIZE_BUCKETS];
	uint64_t leaked_allocations, leaked_bytes;
	/* Allocations of more than GT_HUGE_BLOCK bytes: their bytes; and the
	 * others' live chunks (gt_heap_chunk_bytes) now and at their peak. */
	uint64_t huge_bytes, current_small_bytes, peak_small_bytes;
};

/*
 * Blocks this large every allocator measured maps for themselves and
 * unmaps when freed (glibc beyond 32 MiB, mimalloc beyond 16 MiB, jemalloc
 * from 8 MiB): their pages fault in again whichever one serves them, so
 * they are no allocator's saving (gt_image_heap_refaults).
 */
#define GT_HUGE_BLOCK (16u << 20)

/*
 * What a block of size bytes takes of the heap: glibc's chunk, the size
 * with its 8-byte header rounded up to 16, at least 32 (a million 16-byte
 * blocks take 32 MB). Other allocators' size classes take about as much.
 */
static inline uint64_t gt_heap_chunk_bytes(uint64_t size)
{
	uint64_t chunk = (size + 8 + 15) & ~(uint64_t)15;
	return chunk < 32 ? 32 : chunk;
}

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

/* Counts what is still live as leaked and settles each stack's bytes at
 * the peak (call once, at the end). */
void gt_heap_finish(struct gt_heap *h);

/* Stack ids are dense from 1 in practice (format.h): index them in an
 * array up to this id, and while they stay near the count of stacks seen;
 * in a hash table beyond (corrupt or exotic input). */
#define GT_DENSE_STACK_IDS (1u << 20)

/* The per-stack counters, h->nstacks of them at h->stacks. */

void gt_heap_release(struct gt_heap *h);

/*
 * Forgets the live blocks and the per-stack counters (an image summarized
 * and retired); keeps every other counter. Later frees count as untracked.
 */
void gt_heap_forget(struct gt_heap *h);

#endif /* GT_HEAP_H */
