/*
 * Where the stack walk is not built (anything but x86-64 Linux): every
 * stack is libunwind's (unwind.c).
 */
#include "stack_walk.h"

void gt_stack_walk_init(void)
{
}

void gt_stack_walk_after_dlclose(void)
{
}

void gt_stack_walk_give_back(void)
{
}

int gt_stack_walk(uintptr_t *ips, int limit, uintptr_t own_start, uintptr_t own_end)
{
	(void)ips;
	(void)limit;
	(void)own_start;
	(void)own_end;
	return GT_WALK_UNABLE;
}
