/*
 * Allocates CALLS blocks of SIZE bytes, then ends with the exit_group
 * system call made through syscall(), status 3, as a program that skips
 * libc's _exit does: the exit_syscall test's subject. The trace must hold
 * every allocation and an END of reason _exit.
 */
#define _GNU_SOURCE /* syscall */
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#define CALLS 1000
#define SIZE  4327 /* the size the test counts in the trace */

static void *volatile kept; /* so that no allocation is elided */

int main(void)
{
	for (int i = 0; i < CALLS; i++) {
		kept = malloc(SIZE);
		free(kept);
	}
	syscall(SYS_exit_group, 3);
	return 0; /* not reached */
}
