/*
 * threads_grow: starts threads with stacks of 1 MiB, each waiting on a
 * pipe, until pthread_create fails, then says how many it got (in the
 * words of heap_grows.c: "allocated N MiB"), lets them all end and joins
 * them. Under a limit on memory (ulimit -d counts the stacks the C library
 * maps) that is how much room the limit left it for threads.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define STACK_BYTES (1u << 20)
#define MOST	    4096

static int gate[2];

static void *wait_for_the_gate(void *arg)
{
	char c;
	(void)arg;
	return read(gate[0], &c, 1) == 1 ? NULL : (void *)1;
}

int main(void)
{
	static pthread_t threads[MOST];
	pthread_attr_t attr;
	if (pipe(gate) || pthread_attr_init(&attr) || pthread_attr_setstacksize(&attr, STACK_BYTES))
		return 2;
	int got = 0;
	while (got < MOST && pthread_create(&threads[got], &attr, wait_for_the_gate, NULL) == 0)
		got++;
	printf("allocated %d MiB\n", got);
	fflush(stdout);
	for (int i = 0; i < got; i++)
		if (write(gate[1], "x", 1) != 1)
			return 2;
	for (int i = 0; i < got; i++)
		pthread_join(threads[i], NULL);
	return 0;
}
