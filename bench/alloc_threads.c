/*
 * alloc_threads: THREADS threads that do nothing but allocate and free at
 * the same time, the worst case for the preload's one stream lock (every
 * call takes it). Each thread replaces blocks of a small pool of its own,
 * 16-215 bytes, CALLS times.
 *
 * usage: alloc_threads THREADS [CALLS]   (default CALLS 4000000 per thread)
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define POOL	    64
#define MAX_THREADS 64

static long calls = 4000000;

static void *churn(void *arg)
{
	void *pool[POOL] = {0};
	for (long i = 0; i < calls; i++) {
		int k = (int)(i * 7 % POOL);
		free(pool[k]);
		pool[k] = malloc((size_t)(16 + i % 200));
	}
	for (int k = 0; k < POOL; k++)
		free(pool[k]);
	return arg;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 0;
	if (argc > 2)
		calls = atol(argv[2]);
	if (n < 1 || n > MAX_THREADS || calls < 1) {
		fprintf(stderr, "usage: alloc_threads THREADS(1-%d) [CALLS]\n", MAX_THREADS);
		return 2;
	}
	pthread_t t[MAX_THREADS];
	for (int i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, churn, NULL)) {
			fprintf(stderr, "alloc_threads: cannot create a thread\n");
			return 1;
		}
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	return 0;
}
