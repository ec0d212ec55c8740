/*
 * fd_budget: opens /dev/null until open fails, after one allocation
 * through frames our own stack walk follows, and says how many it got:
 * under `ulimit -n`, how many descriptors were left to the program.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	free(malloc(64)); /* the tracer starts, and walks this stack */
	int got = 0;
	while (open("/dev/null", O_RDONLY) >= 0)
		got++;
	int err = errno;
	printf("opened %d until %s\n", got, strerror(err));
	return err == EMFILE ? 0 : 1;
}
