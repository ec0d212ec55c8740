/*
 * sanitized: a program built with a sanitizer's runtime as a library (gcc's
 * -fsanitize=address or thread), which the preload must leave alone: it
 * allocates on two threads, runs a shell, and prints what it did, and
 * what its library's constructor allocated (sanitized_lib.c). Its output
 * and status are the same traced or not, or the tracer harmed it.
 *
 * usage: sanitized
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCKS 1000

int sanitized_lib_sum(void);

/* Allocates and frees BLOCKS blocks; returns the sum of their first bytes. */
static void *churn(void *arg)
{
	unsigned long sum = 0;
	for (int i = 0; i < BLOCKS; i++) {
		unsigned char *p = malloc(16 + (size_t)i);
		if (!p)
			abort();
		memset(p, i & 0xff, 16 + (size_t)i);
		sum += p[0];
		free(p);
	}
	*(unsigned long *)arg = sum;
	return NULL;
}

int main(void)
{
	unsigned long main_sum = 0, thread_sum = 0;
	pthread_t t;
	if (pthread_create(&t, NULL, churn, &thread_sum))
		return 2;
	churn(&main_sum);
	pthread_join(t, NULL);
	printf("sums %lu %lu, the library's %d\n", main_sum, thread_sum, sanitized_lib_sum());
	fflush(stdout);
	return system("echo child ran") == 0 ? 0 : 3;
}
