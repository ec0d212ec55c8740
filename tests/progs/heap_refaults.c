/*
 * heap_refaults: the two ways an allocator gives heap pages back to the
 * kernel, to fault them in again. Prints its page faults (minor and major)
 * at the end. The heap-refaults test's subject.
 *   trimmed: ROUNDS times, allocates BLOCKS blocks of 300 KiB, writes them,
 *            and frees them, the last first: glibc's heap shrinks back at
 *            every round (its top grows past the trim threshold), where
 *            mimalloc and jemalloc keep the pages. Heap refaults, which
 *            another allocator saves.
 *   huge:    HUGE_ROUNDS times, allocates a block of 40 MiB, writes it and
 *            frees it: every allocator maps and unmaps a block that large
 *            (heap.h, GT_HUGE_BLOCK). No allocator's saving.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#define BLOCK_BYTES (300u << 10)
#define BLOCKS	    4
#define ROUNDS	    50
#define HUGE_BYTES  (40u << 20)
#define HUGE_ROUNDS 3

/* Writes every byte of p, in a way the compiler cannot drop with the block. */
static void write_all(char *p, size_t n, int value)
{
	memset(p, value, n);
	__asm__ volatile("" : : "r"(p) : "memory");
}

int main(void)
{
	char *blocks[BLOCKS];
	for (int round = 0; round < ROUNDS; round++) {
		for (int i = 0; i < BLOCKS; i++) {
			if (!(blocks[i] = malloc(BLOCK_BYTES)))
				return 2;
			write_all(blocks[i], BLOCK_BYTES, round);
		}
		for (int i = BLOCKS - 1; i >= 0; i--)
			free(blocks[i]);
	}
	for (int round = 0; round < HUGE_ROUNDS; round++) {
		char *p = malloc(HUGE_BYTES);
		if (!p)
			return 2;
		write_all(p, HUGE_BYTES, round);
		free(p);
	}
	struct rusage ru;
	if (getrusage(RUSAGE_SELF, &ru))
		return 2;
	printf("faults %ld\n", ru.ru_minflt + ru.ru_majflt);
	return 0;
}
