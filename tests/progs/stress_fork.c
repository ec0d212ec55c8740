/*
 * stress_fork: threads that allocate, free and map without pause while
 * another thread forks again and again, the children either exec /bin/true or
 * allocate and _exit. Run under the preload it looks for deadlocks (a child
 * forked while some thread held a tracer lock) and for crashes in children;
 * the capture test bounds it with `timeout`.
 *
 * usage: stress_fork [ROUNDS]   (default 200 rounds of fork+exec, fork+_exit)
 * Exit status 0 when every child exited 0 and every worker finished.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child_ok.h"

#define N_WORKERS 4

static atomic_int stop;

/* Allocation traffic of every kind the preload records, until told to stop. */
static void *worker(void *arg)
{
	unsigned seed = (unsigned)(size_t)arg;
	void *keep[64] = {0};
	while (!atomic_load(&stop)) {
		for (int i = 0; i < 64; i++) {
			seed = seed * 1103515245u + 12345u;
			size_t size = 16 + (seed >> 16) % 4096;
			free(keep[i]);
			keep[i] = (seed & 1) ? malloc(size) : calloc(1, size);
			if (keep[i])
				memset(keep[i], 1, 16);
		}
		keep[0] = realloc(keep[0], 8192);
		void *m = mmap(NULL, 65536, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
			       0);
		if (m != MAP_FAILED)
			munmap(m, 65536);
	}
	for (int i = 0; i < 64; i++)
		free(keep[i]);
	return NULL;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 200;
	pthread_t threads[N_WORKERS];
	int failed = 0;

	if (rounds <= 0) {
		fprintf(stderr, "usage: stress_fork [ROUNDS]\n");
		return 2;
	}
	for (int i = 0; i < N_WORKERS; i++)
		if (pthread_create(&threads[i], NULL, worker, (void *)(size_t)(i + 1))) {
			fprintf(stderr, "stress_fork: cannot create thread\n");
			return 1;
		}
	/* The main thread forks while the workers run. */
	for (int r = 0; r < rounds && !failed; r++) {
		pid_t a = fork();
		if (a == 0) {
			execl("/bin/true", "true", (char *)NULL);
			_exit(127);
		}
		pid_t b = fork();
		if (b == 0) {
			void *p = malloc(100);
			free(p);
			_exit(0);
		}
		if (a < 0 || b < 0 || !child_ok(a) || !child_ok(b)) {
			fprintf(stderr, "stress_fork: child failed in round %d\n", r);
			failed = 1;
		}
	}
	atomic_store(&stop, 1);
	for (int i = 0; i < N_WORKERS; i++)
		pthread_join(threads[i], NULL);
	if (!failed)
		printf("stress_fork: %d rounds\n", rounds);
	return failed;
}
