/* A frame without unwind information (no_unwind_info.c). */
#ifndef GT_TEST_NO_UNWIND_INFO_H
#define GT_TEST_NO_UNWIND_INFO_H

#include <stddef.h>

/* mallocs size bytes and frees them, from a frame with no CFI. */
void gt_test_alloc_without_unwind_info(size_t size);

/*
 * Recurses depth times, 2 KiB of stack a frame, then allocates: an unwind
 * from there reads many stack pages through guessed frames, so libunwind
 * checks memory it has not checked before.
 */
void gt_test_alloc_deep_without_unwind_info(int depth);

#endif
