/*
 * A program with an allocator of its own: malloc, calloc, realloc and free
 * defined in the executable, which the dynamic linker binds the program's
 * and libc's calls to before any preloaded library. A bump allocator over
 * mmap, under a lock: the tracer's work inside its mmap hook allocated from
 * it while it held that lock, and the program hung at its start. It
 * defines no reallocarray, whose hook then called glibc's realloc on one
 * of its blocks, which aborted. The capture test allocator_in_front.sh
 * runs it. Usage: own_malloc [COMMAND ARG...], which it execs at its end.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, reallocarray */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define CHUNK  (1 << 20)
#define HEADER 16 /* the block's size, kept in front of it for realloc */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char *next, *end;

void *malloc(size_t n)
{
	n = n ? (n + 15) & ~(size_t)15 : 16;
	pthread_mutex_lock(&lock);
	if (!next || next + HEADER + n > end) {
		size_t size = HEADER + n > CHUNK ? HEADER + n : CHUNK;
		char *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
			       0);
		if (p == MAP_FAILED) {
			pthread_mutex_unlock(&lock);
			errno = ENOMEM;
			return NULL;
		}
		next = p;
		end = p + size;
	}
	char *block = next + HEADER;
	*(size_t *)next = n;
	next += HEADER + n;
	pthread_mutex_unlock(&lock);
	return block;
}

void free(void *p)
{
	(void)p;
}

void *calloc(size_t count, size_t size)
{
	if (size && count > (size_t)-1 / size) {
		errno = ENOMEM;
		return NULL;
	}
	void *p = malloc(count * size);
	return p ? memset(p, 0, count * size) : NULL;
}

void *realloc(void *p, size_t n)
{
	void *q = malloc(n);
	if (p && q) {
		size_t old = *(size_t *)((char *)p - HEADER);
		memcpy(q, p, old < n ? old : n);
	}
	return q;
}

static void *volatile kept; /* so that no allocation is elided */

/* With a command, execs it once done: the program it starts. */
int main(int argc, char **argv)
{
	for (int i = 0; i < 100000; i++)
		kept = malloc((size_t)i % 300 + 1);
	/* glibc's reallocarray calls the program's realloc. */
	char *s = malloc(4);
	memcpy(s, "abc", 4);
	s = reallocarray(s, 2, 1000);
	if (!s || strcmp(s, "abc") != 0)
		return 1;
	printf("the program's own allocator served it\n");
	if (argc > 1) {
		fflush(stdout);
		execvp(argv[1], argv + 1);
		return 127;
	}
	return 0;
}
