/* Exits normally with the library's blocks taken (frees_after_end_lib.c). */
#include "frees_after_end.h"

int main(void)
{
	return gt_test_blocks_taken() == GT_TEST_BLOCKS_AFTER_END ? 0 : 1;
}
