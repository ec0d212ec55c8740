/*
 * Run with stderr closed, it opens FILE, which takes fd 2, writes a line
 * there, then allocates until a limit on its address space it set stops
 * it, which stops the tracer too, with a warning; then writes another
 * line. The capture test stderr_taken.sh checks that the warning stays out
 * of FILE: it is not the stderr the program started with.
 *
 * usage: stderr_taken FILE
 */
#define _POSIX_C_SOURCE 200809L /* dprintf */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

#define BLOCK (1 << 20)
#define MOST  4096

int main(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	int fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return 1;
	dprintf(fd, "the program's file, on fd %d\n", fd);
	struct rlimit as = {512 << 20, 512 << 20};
	if (setrlimit(RLIMIT_AS, &as))
		return 1;
	static void *blocks[MOST];
	int n = 0;
	while (n < MOST && (blocks[n] = malloc(BLOCK)))
		n++;
	while (n)
		free(blocks[--n]);
	dprintf(fd, "its last line\n");
	return close(fd) != 0;
}
