/*
 * bench/capture_micro.c: what the pieces of the preload's hot path cost one
 * by one on this machine (ns per operation, best of 5 runs of N): the clock
 * read twice per call, the TSC that could replace it, the stream mutex, the
 * fork-guard rwlock taken per unwind, and libunwind's unw_backtrace at a few
 * depths. A measuring tool for docs/capture-cost.md, not part of gittrace.
 *
 * build: cc -O2 -std=gnu11 bench/capture_micro.c -lunwind -lpthread -o capture_micro
 */
#define _GNU_SOURCE
#define UNW_LOCAL_ONLY
#include <libunwind.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <x86intrin.h>

static uint64_t now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static volatile uint64_t sink;
static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_rwlock_t rwlock = PTHREAD_RWLOCK_INITIALIZER;

#define N 2000000

static double best(void (*op)(void), long n)
{
	double b = 1e30;
	for (int r = 0; r < 5; r++) {
		uint64_t t0 = now();
		for (long i = 0; i < n; i++)
			op();
		double ns = (double)(now() - t0) / (double)n;
		b = ns < b ? ns : b;
	}
	return b;
}

static void op_clock(void)
{
	sink += now();
}
static void op_rdtsc(void)
{
	sink += __rdtsc();
}
static void op_rdtscp(void)
{
	unsigned aux;
	sink += __rdtscp(&aux);
}
static void op_mutex(void)
{
	pthread_mutex_lock(&mutex);
	sink++;
	pthread_mutex_unlock(&mutex);
}
static void op_rwlock(void)
{
	pthread_rwlock_rdlock(&rwlock);
	sink++;
	pthread_rwlock_unlock(&rwlock);
}

static int depth_wanted;
static void *frames[64];
static void op_unwind(void)
{
	sink += (uint64_t)unw_backtrace(frames, 64);
}

/* Recurses to the wanted depth, then times unwinds from there. */
__attribute__((noinline)) static double at_depth(int d, long n)
{
	if (d > 0) {
		double r = at_depth(d - 1, n);
		__asm__ volatile("" ::: "memory"); /* not a tail call */
		return r;
	}
	return best(op_unwind, n);
}

int main(void)
{
	unw_set_caching_policy(unw_local_addr_space, UNW_CACHE_PER_THREAD);
	printf("| operation | ns |\n|---|---|\n");
	printf("| clock_gettime(CLOCK_MONOTONIC) | %.1f |\n", best(op_clock, N));
	printf("| rdtsc | %.1f |\n", best(op_rdtsc, N));
	printf("| rdtscp | %.1f |\n", best(op_rdtscp, N));
	printf("| pthread_mutex lock+unlock (uncontended) | %.1f |\n", best(op_mutex, N));
	printf("| pthread_rwlock rdlock+unlock (uncontended) | %.1f |\n", best(op_rwlock, N));
	for (depth_wanted = 5; depth_wanted <= 30; depth_wanted += 5) {
		double ns = at_depth(depth_wanted, N / 20);
		int got = unw_backtrace(frames, 64);
		(void)got;
		printf("| unw_backtrace, %d frames deep (warm cache) | %.1f |\n", depth_wanted + 4,
		       ns);
	}
	return 0;
}
