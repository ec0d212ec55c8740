/*
 * A library of the sanitized program (sanitized.c) whose constructor, run
 * before libgittrace's, allocates more than the preload's bootstrap arena
 * holds (bootstrap.c), with malloc, aligned_alloc and posix_memalign: a
 * sanitizer's runtime has started by then, and the real functions must
 * serve them. Stopping at the arena's end made malloc fail there.
 */
#define _POSIX_C_SOURCE 200809L /* posix_memalign */
#include <stdlib.h>
#include <string.h>

#define BLOCKS 400 /* of 1 KiB: beyond the arena's 256 KiB */

static char *kept[BLOCKS + 2];

__attribute__((constructor)) static void allocate(void)
{
	for (int i = 0; i < BLOCKS; i++)
		if (!(kept[i] = malloc(1024)))
			abort();
	void *p;
	if (!(kept[BLOCKS] = aligned_alloc(64, 128)) || posix_memalign(&p, 4096, 100))
		abort();
	kept[BLOCKS + 1] = p;
	for (int i = 0; i < BLOCKS + 2; i++)
		memset(kept[i], 1, 100);
}

int sanitized_lib_sum(void)
{
	int sum = 0;
	for (int i = 0; i < BLOCKS + 2; i++)
		sum += kept[i][0];
	return sum;
}
