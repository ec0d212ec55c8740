/*
 * Runs COMMAND with system(), with popen(), echoing what the popen'ed
 * command printed, and in wordexp()'s command substitution; then says
 * whether its own environment holds GITTRACE_SESSION: the shell-out test's
 * subject. glibc starts the shells with its internal posix_spawn, which the
 * exec and spawn hooks never see. Last, while a shell that system() runs
 * waits, another thread changes a variable and removes another (setenv and
 * unsetenv change the array environ points at in place), and it prints
 * what the environment holds after: the program's changes, traced or not.
 *
 * usage: shell_out COMMAND
 */
#define _POSIX_C_SOURCE 200809L /* popen, setenv */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <wordexp.h>

/* ready: the shell says it started; go: the thread says it is done. */
static int ready[2], go[2];

static void *change_environment(void *unused)
{
	(void)unused;
	char c;
	if (read(ready[0], &c, 1) != 1)
		abort();
	setenv("SHELL_OUT_CHANGED", "new", 1);
	unsetenv("SHELL_OUT_REMOVED");
	if (write(go[1], "\n", 1) != 1)
		abort();
	return NULL;
}

static void environment_changed_during_system(void)
{
	setenv("SHELL_OUT_CHANGED", "old", 1);
	setenv("SHELL_OUT_REMOVED", "yes", 1);
	pthread_t t;
	if (pipe(ready) || pipe(go) || pthread_create(&t, NULL, change_environment, NULL))
		abort();
	char command[128];
	snprintf(command, sizeof(command), "echo >&%d; read line <&%d", ready[1], go[0]);
	printf("system while the environment changes: %d\n", system(command));
	pthread_join(t, NULL);
	const char *removed = getenv("SHELL_OUT_REMOVED");
	printf("after: SHELL_OUT_CHANGED=%s SHELL_OUT_REMOVED=%s\n", getenv("SHELL_OUT_CHANGED"),
	       removed ? removed : "(unset)");
}

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
	fflush(stdout);
	environment_changed_during_system();
	return 0;
}
