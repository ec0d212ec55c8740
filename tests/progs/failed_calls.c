/*
 * failed_calls: calls each hooked function so that it fails, and so that
 * it returns what looks like a failure but is none, a known number of
 * times each; the report's failed calls (model.h) must count the first
 * kind only. Each failure is checked as it happens, so that the counts
 * this program prints are what the C library did, not what it should do.
 *
 * usage: failed_calls      run; prints one line per function,
 *                          "FUNCTION FAILED", for the test to compare
 */
#define _GNU_SOURCE /* mremap, reallocarray, valloc, pvalloc */
#include <errno.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/*
 * More than any allocator serves: fails whatever the machine
 * (huge_request.c); and half of SIZE_MAX, whose product by 4 overflows.
 * Read at run time, so that the compiler does not warn of them.
 */
static volatile size_t huge = (size_t)PTRDIFF_MAX + 1, half = SIZE_MAX / 2;

static void *volatile kept; /* so that no call is elided */

static unsigned failed[16];
static const char *names[16]; /* the functions, in the order of their first call */
static unsigned nnames;

/* Counts a failure of function fn when failed_now holds; dies otherwise. */
static void expect_failure(const char *fn, int failed_now)
{
	unsigned i = 0;
	while (i < nnames && strcmp(names[i], fn))
		i++;
	if (i == nnames)
		names[nnames++] = fn;
	if (!failed_now) {
		fprintf(stderr, "failed_calls: %s did not fail\n", fn);
		exit(1);
	}
	failed[i]++;
}

/* A call that looks like a failure but is not one; dies if it did fail. */
static void expect_no_failure(const char *fn, int ok)
{
	if (!ok) {
		fprintf(stderr, "failed_calls: %s failed\n", fn);
		exit(1);
	}
}

int main(void)
{
	void *p;
	for (int round = 0; round < 2; round++) {
		expect_failure("malloc", (kept = malloc(huge)) == NULL);
		expect_failure("calloc", (kept = calloc(half, 4)) == NULL);
		p = malloc(16);
		expect_failure("realloc", (kept = realloc(p, huge)) == NULL);
		expect_failure("reallocarray", (kept = reallocarray(p, half, 4)) == NULL);
		free(p);
		expect_failure("posix_memalign", posix_memalign(&p, 3, 16) == EINVAL);
		expect_failure("aligned_alloc", (kept = aligned_alloc(16, huge)) == NULL);
		expect_failure("memalign", (kept = memalign(16, huge)) == NULL);
		expect_failure("valloc", (kept = valloc(huge)) == NULL);
		expect_failure("pvalloc", (kept = pvalloc(huge)) == NULL);
		expect_failure("mmap",
			       mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, -1, 0) == MAP_FAILED);
		expect_failure("munmap", munmap((char *)&failed + 1, 4096) == -1);
		expect_failure("mremap", mremap((void *)4096, 4096, 8192, 0) == MAP_FAILED);
	}
	/* NULL that is no failure: realloc(p, 0) frees p; 0 bytes asked. */
	p = malloc(16);
	free(kept = realloc(p, 0));
	free(kept = malloc(0));
	free(kept = calloc(0, 8));
	p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	expect_no_failure("mmap", p != MAP_FAILED);
	expect_no_failure("munmap", munmap(p, 4096) == 0);
	for (unsigned i = 0; i < nnames; i++)
		printf("%s %u\n", names[i], failed[i]);
	return 0;
}
