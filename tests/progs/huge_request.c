/*
 * Asks for more memory than any machine has, as a program that probes its
 * limits does, and reserves address space as runtimes do: more than the
 * address space has room for, halving until a reservation fits, and a
 * fixed range past its top. Then allocates CALLS blocks of SIZE bytes: the
 * huge requests and the reservations that do not fit fail with ENOMEM
 * whatever the tracer holds, so tracing must go on (it stopped, with a
 * warning that blamed a limit on address space). Prints how the requests
 * ended; the capture test huge_request.sh counts the blocks in the trace.
 */
#define _GNU_SOURCE /* MAP_FIXED_NOREPLACE */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000 /* Linux 4.17; glibc 2.28 names it */
#endif

#define CALLS 1000
#define SIZE  4327 /* the size the test counts in the trace */

static void *volatile kept; /* so that no allocation is elided */

static void ask(const char *what, void *p)
{
	printf("%s: %s\n", what, p ? "served" : errno == ENOMEM ? "ENOMEM" : "failed");
	free(p);
}

int main(void)
{
	ask("malloc(PTRDIFF_MAX)", malloc(PTRDIFF_MAX));
	ask("malloc(2^50)", malloc((size_t)1 << 50));
	ask("calloc(2^25, 2^25)", calloc((size_t)1 << 25, (size_t)1 << 25));
	void *p = malloc(16);
	ask("realloc(p, 2^50)", realloc(p, (size_t)1 << 50));
	free(p);
	size_t len = (size_t)1 << 62;
	void *r;
	int fails = 0;
	while ((r = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1,
			 0)) == MAP_FAILED &&
	       errno == ENOMEM && len > 4096) {
		fails++;
		len /= 2;
	}
	printf("reservations that did not fit: %s\n",
	       fails > 0 && r != MAP_FAILED ? "ENOMEM" : "?");
	munmap(r, len);
	/* The last page of the 47-bit address space and the one past it. */
	r = mmap((void *)(((uintptr_t)1 << 47) - 4096), 2 * 4096, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	printf("a fixed range past the top: %s\n", r != MAP_FAILED   ? "served"
						   : errno == ENOMEM ? "ENOMEM"
								     : "failed");
	for (int i = 0; i < CALLS; i++) {
		kept = malloc(SIZE);
		free(kept);
	}
	return 0;
}
