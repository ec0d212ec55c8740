/*
 * mremap with MREMAP_DONTUNMAP takes new_address as a hint, which the
 * kernel checks (Linux 5.7): a free, aligned one is where the mapping goes,
 * an unaligned one fails with EINVAL. Prints what happened; writes the
 * hint's address to the file argv[1], for the test to find in the trace.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MREMAP_DONTUNMAP
#define MREMAP_DONTUNMAP 4
#endif

int main(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	size_t page = (size_t)sysconf(_SC_PAGESIZE), len = 16 * page;
	char *a = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	/* A free place to hint at: mapped, then given back. */
	char *room = mmap(NULL, 64 * page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (a == MAP_FAILED || room == MAP_FAILED)
		return 2;
	munmap(room, 64 * page);
	char *hint = room + 16 * page;
	FILE *f = fopen(argv[1], "w");
	if (!f || fprintf(f, "%p\n", (void *)hint) < 0 || fclose(f))
		return 2;
	char *b = mremap(a, len, len, MREMAP_MAYMOVE | MREMAP_DONTUNMAP, hint);
	if (b == MAP_FAILED && errno == EINVAL) {
		printf("no MREMAP_DONTUNMAP here\n"); /* a kernel before 5.7 */
		return 0;
	}
	printf("aligned hint: %s\n", b == MAP_FAILED ? strerror(errno)
				     : b == hint     ? "the mapping went there"
						     : "the mapping went elsewhere");
	char *c = mremap(a, len, len, MREMAP_MAYMOVE | MREMAP_DONTUNMAP, (void *)(hint + 1));
	printf("unaligned hint: %s\n", c == MAP_FAILED ? strerror(errno) : "taken");
	return 0;
}
