/*
 * many_children: forks N children one after another; each allocates from
 * many distinct stacks (a recursion of every depth up to DEPTHS), leaks a
 * little and ends with _exit. A trace of it has N + 1 images with their own
 * stacks: what the analyzer must not keep all of at once.
 *
 * usage: many_children N
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define DEPTHS 60

__attribute__((noinline)) static void *descend(int depth)
{
	if (depth > 0) {
		void *volatile p = descend(depth - 1);
		return p;
	}
	return malloc(48);
}

static void child(void)
{
	for (int d = 0; d < DEPTHS; d++) {
		void *p = descend(d);
		if (d % 2)
			free(p); /* every other one leaks */
	}
	_exit(0);
}

int main(int argc, char **argv)
{
	int n = argc == 2 ? atoi(argv[1]) : 0;
	if (n <= 0) {
		fprintf(stderr, "usage: many_children N\n");
		return 2;
	}
	for (int i = 0; i < n; i++) {
		pid_t pid = fork();
		if (pid < 0) {
			perror("fork");
			return 1;
		}
		if (pid == 0)
			child();
		int status;
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
			return 1;
	}
	return 0;
}
