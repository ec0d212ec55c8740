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
 * With the argument "small", it does neither: it allocates SMALL_BLOCKS
 * blocks of 16 bytes and writes them, never freeing (they take twice their
 * bytes of the heap: glibc's chunks), a heap no allocator faults in twice.
 * It first maps its own program file, as git maps its files: the tracer
 * reads the thread's faults after each map, and the first reading is the
 * start-up's.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#define BLOCK_BYTES  (300u << 10)
#define BLOCKS	     4
#define ROUNDS	     50
#define HUGE_BYTES   (40u << 20)
#define HUGE_ROUNDS  3
#define SMALL_BLOCKS (2u << 20)

/* Writes every byte of p, in a way the compiler cannot drop with the block. */
static void write_all(char *p, size_t n, int value)
{
	memset(p, value, n);
	__asm__ volatile("" : : "r"(p) : "memory");
}

/* Maps and unmaps a page of this program's file. */
static int map_a_file(void)
{
	int fd = open("/proc/self/exe", O_RDONLY);
	if (fd < 0)
		return -1;
	void *p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	return p == MAP_FAILED ? -1 : munmap(p, 4096);
}

/* SMALL_BLOCKS blocks of 16 bytes, written, never freed. */
static int small_blocks(void)
{
	for (unsigned i = 0; i < SMALL_BLOCKS; i++) {
		char *p = malloc(16);
		if (!p)
			return -1;
		write_all(p, 16, (int)i);
	}
	return 0;
}

static int trimmed_and_huge(void)
{
	char *blocks[BLOCKS];
	for (int round = 0; round < ROUNDS; round++) {
		for (int i = 0; i < BLOCKS; i++) {
			if (!(blocks[i] = malloc(BLOCK_BYTES)))
				return -1;
			write_all(blocks[i], BLOCK_BYTES, round);
		}
		for (int i = BLOCKS - 1; i >= 0; i--)
			free(blocks[i]);
	}
	for (int round = 0; round < HUGE_ROUNDS; round++) {
		char *p = malloc(HUGE_BYTES);
		if (!p)
			return -1;
		write_all(p, HUGE_BYTES, round);
		free(p);
	}
	return 0;
}

int main(int argc, char **argv)
{
	int small = argc == 2 && !strcmp(argv[1], "small");
	if (map_a_file() || (small ? small_blocks() : trimmed_and_huge()))
		return 2;
	struct rusage ru;
	if (getrusage(RUSAGE_SELF, &ru))
		return 2;
	printf("faults %ld\n", ru.ru_minflt + ru.ru_majflt);
	return 0;
}
