/*
 * A library whose destructor frees what its constructor allocated. The
 * program needs it, so the loader finalizes it after the preload, as it
 * does a C++ program's libraries and their static objects: the
 * frees-after-END test's subject.
 */
#include <stdlib.h>

#include "frees_after_end.h"

static void *blocks[GT_TEST_BLOCKS_AFTER_END];

__attribute__((constructor)) static void take(void)
{
	for (int i = 0; i < GT_TEST_BLOCKS_AFTER_END; i++)
		blocks[i] = malloc(32 + (size_t)i);
}

__attribute__((destructor)) static void give_back(void)
{
	for (int i = 0; i < GT_TEST_BLOCKS_AFTER_END; i++)
		free(blocks[i]);
}

int gt_test_blocks_taken(void)
{
	int n = 0;
	for (int i = 0; i < GT_TEST_BLOCKS_AFTER_END; i++)
		n += blocks[i] != NULL;
	return n;
}
