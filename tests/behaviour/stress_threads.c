/*
 * stress_threads: the preload's concurrency stress, a step beyond
 * tests/progs/stress_fork (one thread forking while others allocate). Here
 * several threads fork at once while others allocate with every function
 * the preload hooks (malloc, calloc, realloc, posix_memalign,
 * aligned_alloc, free, mmap, mremap, munmap) and another creates and ends
 * threads without pause. Each forked child, in turn, execs this program in
 * child mode (itself threaded, ending with exit()), allocates and _exits,
 * or allocates and exit()s (atexit handlers in a fork of a threaded
 * process). It looks for deadlocks (a lock held across fork), crashes and
 * lost records under contention; the test bounds it with `timeout`.
 *
 * usage: stress_threads ROUNDS   each forking thread forks ROUNDS times
 *        stress_threads --child  (run by the program itself)
 * Prints "stress_threads: F forks, E execs" and exits 0 when every child
 * exited 0; the counts are what a trace of the run must hold.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../progs/child_ok.h"

#define N_ALLOCATORS 3
#define N_FORKERS    2
#define KEEP	     32

static atomic_int stop;
static atomic_int forks, execs, failures;
static char self[PATH_MAX];
static int rounds;

static unsigned next(unsigned *seed)
{
	*seed = *seed * 1103515245u + 12345u;
	return *seed >> 8;
}

/* One pass of allocation traffic of every kind over keep[KEEP]. */
static void churn(unsigned *seed, void **keep)
{
	for (int i = 0; i < KEEP; i++) {
		unsigned r = next(seed);
		size_t size = 16 + r % 3000;
		void *p = NULL;
		switch (r % 5) {
		case 0:
			free(keep[i]);
			keep[i] = malloc(size);
			break;
		case 1:
			free(keep[i]);
			keep[i] = calloc(2, size / 2);
			break;
		case 2: /* grows or moves the block (NULL: a fresh one) */
			p = realloc(keep[i], size);
			if (p)
				keep[i] = p;
			break;
		case 3:
			free(keep[i]);
			keep[i] = posix_memalign(&p, 64, size) == 0 ? p : NULL;
			break;
		case 4:
			free(keep[i]);
			keep[i] = aligned_alloc(256, 256 * (1 + size / 256));
			break;
		}
		if (keep[i])
			memset(keep[i], (int)r, 8);
	}
	char *m = mmap(NULL, 65536, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return;
	m[0] = 1;
	char *grown = mremap(m, 65536, 131072, MREMAP_MAYMOVE);
	munmap(grown == MAP_FAILED ? m : grown, grown == MAP_FAILED ? 65536 : 131072);
}

static void release(void **keep)
{
	for (int i = 0; i < KEEP; i++) {
		free(keep[i]);
		keep[i] = NULL;
	}
}

static void *allocator(void *arg)
{
	unsigned seed = (unsigned)(size_t)arg;
	void *keep[KEEP] = {0};
	while (!atomic_load(&stop))
		churn(&seed, keep);
	release(keep);
	return NULL;
}

/* A few passes, then the thread ends: exercises the thread-exit path. */
static void *short_lived(void *arg)
{
	unsigned seed = (unsigned)(size_t)arg;
	void *keep[KEEP] = {0};
	for (int i = 0; i < 4; i++)
		churn(&seed, keep);
	release(keep);
	return NULL;
}

static void *spawner(void *arg)
{
	size_t n = (size_t)arg;
	while (!atomic_load(&stop)) {
		pthread_t t;
		if (pthread_create(&t, NULL, short_lived, (void *)n++) == 0)
			pthread_join(t, NULL);
	}
	return NULL;
}

/* In a forked child: never returns. */
static void child(int kind, unsigned seed)
{
	void *keep[KEEP] = {0};
	if (kind == 0) {
		execl(self, "stress_threads", "--child", (char *)NULL);
		_exit(127);
	}
	churn(&seed, keep);
	release(keep);
	if (kind == 1)
		_exit(0);
	exit(0);
}

static void *forker(void *arg)
{
	unsigned id = (unsigned)(size_t)arg;
	for (int r = 0; r < rounds; r++) {
		int kind = r % 3;
		pid_t pid = fork();
		if (pid == 0)
			child(kind, id * 7919u + (unsigned)r);
		if (pid < 0 || !child_ok(pid)) {
			atomic_fetch_add(&failures, 1);
			continue;
		}
		atomic_fetch_add(&forks, 1);
		if (kind == 0)
			atomic_fetch_add(&execs, 1);
	}
	return NULL;
}

/* Child mode: two threads allocate for a while, then exit(). */
static int child_mode(void)
{
	pthread_t t[2];
	for (size_t i = 0; i < 2; i++)
		if (pthread_create(&t[i], NULL, short_lived, (void *)(i + 100)))
			return 1;
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	exit(0);
}

int main(int argc, char **argv)
{
	pthread_t alloc[N_ALLOCATORS], fork_threads[N_FORKERS], spawn;

	if (argc == 2 && strcmp(argv[1], "--child") == 0)
		return child_mode();
	rounds = argc == 2 ? atoi(argv[1]) : 0;
	if (rounds <= 0) {
		fprintf(stderr, "usage: stress_threads ROUNDS\n");
		return 2;
	}
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0) {
		fprintf(stderr, "stress_threads: cannot find myself\n");
		return 1;
	}
	self[n] = '\0';

	for (size_t i = 0; i < N_ALLOCATORS; i++)
		if (pthread_create(&alloc[i], NULL, allocator, (void *)(i + 1)))
			return 1;
	if (pthread_create(&spawn, NULL, spawner, (void *)(size_t)1000))
		return 1;
	for (size_t i = 0; i < N_FORKERS; i++)
		if (pthread_create(&fork_threads[i], NULL, forker, (void *)(i + 1)))
			return 1;
	for (int i = 0; i < N_FORKERS; i++)
		pthread_join(fork_threads[i], NULL);
	atomic_store(&stop, 1);
	for (int i = 0; i < N_ALLOCATORS; i++)
		pthread_join(alloc[i], NULL);
	pthread_join(spawn, NULL);

	if (atomic_load(&failures)) {
		fprintf(stderr, "stress_threads: %d children failed\n", atomic_load(&failures));
		return 1;
	}
	printf("stress_threads: %d forks, %d execs\n", atomic_load(&forks), atomic_load(&execs));
	return 0;
}
