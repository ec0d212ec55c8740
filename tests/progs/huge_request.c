/*
 * Asks for more memory than any machine has, as a program that probes its
 * limits does, then allocates CALLS blocks of SIZE bytes: the huge
 * requests fail with ENOMEM whatever the tracer holds, so tracing must go
 * on (it stopped, with a warning that blamed a limit on address space).
 * Prints how the huge requests ended; the capture test huge_request.sh
 * counts the blocks in the trace.
 */
#define _DEFAULT_SOURCE /* reallocarray */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

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
	for (int i = 0; i < CALLS; i++) {
		kept = malloc(SIZE);
		free(kept);
	}
	return 0;
}
