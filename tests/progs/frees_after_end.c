/*
 * Exits normally, with status 3 when the library's blocks were taken
 * (frees_after_end_lib.c): a status the test can tell from a default.
 */
#include "frees_after_end.h"

int main(void)
{
	return gt_test_blocks_taken() == GT_TEST_BLOCKS_AFTER_END ? 3 : 1;
}
