/*
 * fd_budget: opens /dev/null until open fails, after one allocation
 * through frames our own stack walk follows, and says how many it got:
 * under `ulimit -n`, how many descriptors were left to the program. Then
 * it closes two, allocates through a frame without unwind information
 * (libunwind's first walk: it starts, and wants a pipe) and opens two
 * again, as a program at its limit that freed two counts on.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "no_unwind_info.h"

int main(void)
{
	free(malloc(64)); /* the tracer starts, and walks this stack */
	int got = 0, last = -1, fd;
	while ((fd = open("/dev/null", O_RDONLY)) >= 0) {
		got++;
		last = fd;
	}
	int err = errno;
	printf("opened %d until %s\n", got, strerror(err));
	if (err != EMFILE || got < 2)
		return 1;
	close(last);
	close(last - 1);
	gt_test_alloc_without_unwind_info(64);
	int again = 0;
	while (again < 2 && open("/dev/null", O_RDONLY) >= 0)
		again++;
	printf("opened %d of 2 again\n", again);
	return 0;
}
