/*
 * Runs COMMAND with system(), with popen(), echoing what the popen'ed
 * command printed, and in wordexp()'s command substitution; then says
 * whether its own environment holds GITTRACE_SESSION: the shell-out test's
 * subject. glibc starts the shells with its internal posix_spawn, which the
 * exec and spawn hooks never see.
 *
 * usage: shell_out COMMAND
 */
#define _POSIX_C_SOURCE 200809L /* popen */
#include <stdio.h>
#include <stdlib.h>
#include <wordexp.h>

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: shell_out COMMAND\n");
		return 2;
	}
	printf("system: %d\n", system(argv[1]));
	fflush(stdout);
	FILE *f = popen(argv[1], "r");
	if (!f) {
		perror("popen");
		return 1;
	}
	char line[256];
	while (fgets(line, sizeof(line), f))
		printf("popen read: %s", line);
	printf("pclose: %d\n", pclose(f));
	char words[300];
	snprintf(words, sizeof(words), "$(%s)", argv[1]);
	wordexp_t we;
	int r = wordexp(words, &we, 0);
	printf("wordexp: %d, %zu words\n", r, r ? 0 : we.we_wordc);
	if (!r)
		wordfree(&we);
	printf("GITTRACE_SESSION in its own environment: %s\n",
	       getenv("GITTRACE_SESSION") ? "yes" : "no");
	return 0;
}
