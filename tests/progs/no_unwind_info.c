/*
 * Built with -fno-asynchronous-unwind-tables -fno-unwind-tables and frame
 * pointers: a frame with no .eh_frame entry, whose caller an unwinder can
 * only guess (from rbp) after checking that the memory is readable.
 */
#include "no_unwind_info.h"

#include <stdlib.h>

__attribute__((noinline)) void gt_test_alloc_without_unwind_info(size_t size)
{
	void *volatile p = malloc(size);
	free(p);
}

__attribute__((noinline)) void gt_test_alloc_deep_without_unwind_info(int depth)
{
	volatile char pad[2048];
	pad[0] = (char)depth;
	if (depth > 0)
		gt_test_alloc_deep_without_unwind_info(depth - 1);
	else
		gt_test_alloc_without_unwind_info(77);
	(void)pad[0];
}
