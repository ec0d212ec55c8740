/*
 * churn_forever: allocates and frees until killed, for the test that a
 * trace cut short by kill -9 stays readable. After READY_CALLS calls it
 * creates the file READY (so the test knows the tracer has had records to
 * write) and then goes on, so that the kill lands while records are being
 * made and, most likely, while a block is being written.
 *
 * usage: churn_forever READY
 *
 * It gives up with status 3 after MAX_CALLS calls, so that a test that fails
 * to kill it cannot fill the disk with an endless trace.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define READY_CALLS 200000
#define MAX_CALLS   (200 * READY_CALLS)

int main(int argc, char **argv)
{
	void *slots[16] = {0};
	unsigned long n = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: churn_forever READY\n");
		return 2;
	}
	while (n < MAX_CALLS) {
		unsigned i = (unsigned)(n % 16);
		free(slots[i]);
		slots[i] = malloc(32 + n % 512);
		if (++n == READY_CALLS) {
			int fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
			if (fd < 0) {
				perror(argv[1]);
				return 1;
			}
			close(fd);
		}
	}
	fprintf(stderr, "churn_forever: not killed after %d calls\n", MAX_CALLS);
	return 3;
}
