/*
 * Hands exec and posix_spawn an environment the kernel refuses (EFAULT),
 * or one that ends just before memory it cannot read: the bad_envp test's
 * subject. Prints what each call returned, then execs "sh -c 'exit 4'"
 * with a good environment, whose last string ends on the last byte before
 * an unreadable page.
 *
 *   bad_envp array    execve with envp an unmapped address
 *   bad_envp string   execve with one string of envp unmapped
 *   bad_envp unended  execve with a string that runs into an unreadable page
 *   bad_envp spawn    posix_spawn with envp an unmapped address
 *   bad_envp edge     none of those: only the final exec
 */
#define _GNU_SOURCE /* execve's environ */
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

extern char **environ;

static char *const sh[] = {"sh", "-c", "exit 4", NULL};

static void try_execve(char *const envp[])
{
	int ret = execve("/bin/sh", sh, envp);
	printf("execve %d errno %d\n", ret, errno);
}

/* Two pages, the second unreadable; returns the first's end. */
static char *before_unreadable(void)
{
	long page = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, 2 * (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);
	if (p == MAP_FAILED || mprotect(p + page, (size_t)page, PROT_NONE))
		exit(2);
	return p + page;
}

int main(int argc, char **argv)
{
	const char *mode = argc == 2 ? argv[1] : "";
	char **unmapped = (char **)16;
	char *env[] = {"A=1", (char *)16, NULL};
	if (!strcmp(mode, "array"))
		try_execve(unmapped);
	if (!strcmp(mode, "string"))
		try_execve(env);
	if (!strcmp(mode, "unended")) {
		char *end = before_unreadable();
		memset(end - 8, 'B', 8);
		env[1] = end - 8;
		try_execve(env);
	}
	if (!strcmp(mode, "spawn")) {
		pid_t pid;
		int err = posix_spawn(&pid, "/bin/sh", NULL, NULL, sh, unmapped);
		printf("posix_spawn %s\n", err ? strerror(err) : "started");
	}
	fflush(stdout);
	/* The good environment: the run's, then a string that ends at the
	 * unreadable page. */
	size_t n = 0;
	while (environ[n])
		n++;
	char **good = calloc(n + 2, sizeof(*good));
	if (!good)
		return 2;
	memcpy(good, environ, n * sizeof(*good));
	char *end = before_unreadable();
	memcpy(end - 8, "EDGE=1\0", 8);
	good[n] = end - 8;
	execve("/bin/sh", sh, good);
	return 127;
}
