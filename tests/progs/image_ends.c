/*
 * Allocates CALLS blocks of SIZE bytes, then ends its image by a way other
 * than libc's exit, _exit and exec wrappers that the preload always hooked:
 * the image_ends test's subject. The trace must hold every allocation and
 * the image's END, and an exec'd program must join the run.
 *
 *   image_ends           syscall(SYS_exit_group), status 3: an END of
 *                        reason _exit
 *   image_ends syscall   syscall(SYS_execve) of "sh -c 'exit 4'": an END of
 *                        reason exec, and the shell traced as the next image
 *   image_ends execveat  execveat() of the same
 */
#define _GNU_SOURCE /* syscall, execveat */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define CALLS 1000
#define SIZE  4327 /* the size the test counts in the trace */

static void *volatile kept; /* so that no allocation is elided */

extern char **environ;

int main(int argc, char **argv)
{
	for (int i = 0; i < CALLS; i++) {
		kept = malloc(SIZE);
		free(kept);
	}
	char *const sh[] = {"sh", "-c", "exit 4", NULL};
	if (argc == 2 && !strcmp(argv[1], "syscall")) {
		syscall(SYS_execve, "/bin/sh", sh, environ);
		return 127;
	}
	if (argc == 2 && !strcmp(argv[1], "execveat")) {
		execveat(AT_FDCWD, "/bin/sh", sh, environ, 0);
		return 127;
	}
	syscall(SYS_exit_group, 3);
	return 0; /* not reached */
}
