/*
 * replay_mix: the replay tests' subject (tests/replay/). Every call kind
 * gittrace-replay reproduces, from several threads, with the shapes that
 * make a replay hard: realloc chains (growing, shrinking, realloc(NULL, n),
 * realloc(p, 0)), the aligned family, calloc and reallocarray, free(NULL),
 * and blocks freed by another thread than the one that allocated them
 * (each thread hands blocks to the next through a small mailbox).
 *
 * usage: replay_mix [ROUNDS]   (default 300)
 * Deterministic in what it calls; the threads' interleaving is the
 * scheduler's. Prints a checksum so nothing is optimised away.
 */
#define _GNU_SOURCE
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_THREADS 3
#define MAILBOX	  8

/* Blocks a thread hands to the next one, which frees them. */
struct mailbox {
	pthread_mutex_t lock;
	void *blocks[MAILBOX];
	int n;
};

static struct mailbox boxes[N_THREADS];
static long rounds = 300;
static unsigned long checksum;
static pthread_mutex_t checksum_lock = PTHREAD_MUTEX_INITIALIZER;

static void *must(void *p)
{
	if (!p) {
		fprintf(stderr, "replay_mix: out of memory\n");
		exit(1);
	}
	return p;
}

/* Puts p in box; when the box is full, p is freed here instead. */
static void hand_over(struct mailbox *box, void *p)
{
	pthread_mutex_lock(&box->lock);
	if (box->n < MAILBOX) {
		box->blocks[box->n++] = p;
		p = NULL;
	}
	pthread_mutex_unlock(&box->lock);
	free(p);
}

/* Frees what other threads handed to this one. */
static void empty(struct mailbox *box)
{
	pthread_mutex_lock(&box->lock);
	while (box->n)
		free(box->blocks[--box->n]);
	pthread_mutex_unlock(&box->lock);
}

static unsigned long one_round(long i)
{
	unsigned long sum = 0;
	char *chain = must(realloc(NULL, 16));
	for (size_t n = 32; n <= 4096; n *= 2)
		chain = must(realloc(chain, n + (size_t)i));
	chain = must(realloc(chain, 64)); /* shrink */
	sum += (unsigned char)chain[0];

	int *array = must(reallocarray(NULL, 4, sizeof(int)));
	array = must(reallocarray(array, 40, sizeof(int)));
	char *zeroed = must(calloc(3, 40 + (size_t)i % 7));
	sum += (unsigned char)zeroed[1];

	void *aligned[5];
	if (posix_memalign(&aligned[0], 64, 200))
		must(NULL);
	aligned[1] = must(aligned_alloc(128, 256));
	aligned[2] = must(memalign(256, 300));
	aligned[3] = must(valloc(500));
	aligned[4] = must(pvalloc(600));
	for (int k = 0; k < 5; k++) {
		memset(aligned[k], k, 8);
		free(aligned[k]);
	}

	char *gone = must(malloc(24));
	gone[0] = 1;
	gone = realloc(gone, 0); /* glibc frees and returns NULL */
	free(gone);
	free(NULL);

	free(zeroed);
	free(array);
	free(chain);
	return sum;
}

static void *worker(void *arg)
{
	long me = (long)arg;
	unsigned long sum = 0;
	for (long i = 0; i < rounds; i++) {
		sum += one_round(i);
		char *p = must(malloc(100 + (size_t)me * 10 + (size_t)i % 50));
		p[0] = (char)i;
		hand_over(&boxes[(me + 1) % N_THREADS], p);
		empty(&boxes[me]);
	}
	pthread_mutex_lock(&checksum_lock);
	checksum += sum;
	pthread_mutex_unlock(&checksum_lock);
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc > 1)
		rounds = atol(argv[1]);
	pthread_t threads[N_THREADS];
	for (int t = 0; t < N_THREADS; t++)
		pthread_mutex_init(&boxes[t].lock, NULL);
	for (long t = 0; t < N_THREADS; t++)
		if (pthread_create(&threads[t], NULL, worker, (void *)t)) {
			fprintf(stderr, "replay_mix: cannot start a thread\n");
			return 1;
		}
	for (int t = 0; t < N_THREADS; t++)
		pthread_join(threads[t], NULL);
	for (int t = 0; t < N_THREADS; t++)
		empty(&boxes[t]);
	printf("replay_mix: %ld rounds, checksum %lu\n", rounds, checksum);
	return 0;
}
