/*
 * Unit test: what orders processes heaviest first (gt_proc_weight): the
 * CPU time of a process that ended, the wall time of one that did not,
 * whose CPU time is unknown. A pack-objects killed after 4 s of work once
 * ranked below forks of 0 calls, and the text report left it out of its
 * table.
 */
#include <string.h>

#include "../check.h"
#include "summary.h"

int main(void)
{
	struct gt_image ended, killed;
	memset(&ended, 0, sizeof(ended));
	memset(&killed, 0, sizeof(killed));
	ended.ended = 1;
	struct gt_proc fork_of_nothing = {.img = &ended, .cpu = 0.001, .wall = 0.001};
	struct gt_proc pack_objects = {.img = &killed, .cpu = 0, .wall = 4};
	CHECK(gt_proc_weight(&fork_of_nothing) == 0.001);
	CHECK(gt_proc_weight(&pack_objects) == 4);
	CHECK(gt_proc_weight(&pack_objects) > gt_proc_weight(&fork_of_nothing));
	return check_result("proc_weight");
}
