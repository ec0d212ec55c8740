/*
 * Forks through syscall(SYS_clone) (as systemd's raw_clone does), which
 * runs no pthread_atfork handler: the raw_fork test's subject. The parent
 * allocates PARENT_CALLS blocks before the fork and AFTER_CALLS after the
 * child ended; the child CHILD_CALLS, then exits with status 7. The
 * parent prints the child's status. Each count has a size of its own
 * that the test counts in the trace.
 *
 *   raw_fork          from the main thread
 *   raw_fork threads  while another thread allocates without pause
 */
#define _GNU_SOURCE /* syscall */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define PARENT_CALLS 1000 /* of 1111 bytes */
#define CHILD_CALLS  500  /* of 2222 bytes */
#define AFTER_CALLS  300  /* of 3333 bytes */

static void *volatile kept; /* so that no allocation is elided */
static volatile int stop;

static void allocate(int n, size_t size)
{
	for (int i = 0; i < n; i++) {
		kept = malloc(size);
		free(kept);
	}
}

/* Blocks of another size, so that the stream is busy at the fork. */
static void *churn(void *unused)
{
	(void)unused;
	while (!stop) {
		void *p = malloc(64);
		free(p);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int threads = argc == 2 && !strcmp(argv[1], "threads");
	pthread_t other;
	if (threads && pthread_create(&other, NULL, churn, NULL))
		return 2;
	allocate(PARENT_CALLS, 1111);
	long pid = syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0);
	if (pid < 0)
		return 3;
	if (pid == 0) {
		allocate(CHILD_CALLS, 2222);
		exit(7);
	}
	int status = 0;
	if (waitpid((pid_t)pid, &status, 0) != pid)
		return 4;
	allocate(AFTER_CALLS, 3333);
	if (threads) {
		stop = 1;
		pthread_join(other, NULL);
	}
	printf("child status %d\n", WEXITSTATUS(status));
	return 0;
}
