/*
 * A shared library that does nothing: the "allocator" the environment test
 * preloads, so that it can check where gittrace-ab puts it in LD_PRELOAD
 * without depending on a real allocator being installed.
 */
int gt_ab_test_noop_preload(void);

int gt_ab_test_noop_preload(void)
{
	return 0;
}
