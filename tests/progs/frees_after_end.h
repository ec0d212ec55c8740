/* The frees-after-END test's library (frees_after_end_lib.c). */
#ifndef GT_TEST_FREES_AFTER_END_H
#define GT_TEST_FREES_AFTER_END_H

/* Blocks the library holds from its constructor to its destructor: many
 * more than the analyzer's GT_RETIRE_AFTER_BLOCKS, which each free after
 * END would be a block of its own. */
#define GT_TEST_BLOCKS_AFTER_END 300

int gt_test_blocks_taken(void);

#endif
