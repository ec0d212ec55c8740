/*
 * A library whose constructor runs before the tracer's first hook when it
 * comes after libgittrace.so in LD_PRELOAD, and does there what
 * $GITTRACE_TEST_EARLY says: the image_ends test's early cases.
 *
 *   vfork  a child made by clone(CLONE_VM | CLONE_VFORK) through syscall()
 *          ends with syscall(SYS_exit_group, 5); the parent prints the
 *          child's status and a value it kept in a register across the
 *          call, which a child running through a stack frame overwrote
 *   exec   execve of "sh -c 'exit 4'" through syscall()
 *   fork   fork(): the child makes 500 allocations of 2222 bytes and
 *          exits with status 7 (a run of its own truncated the parent's
 *          trace, and no destructor of the tracer's runs in the child)
 *   raw_fork  the same through syscall(SYS_fork)
 *   atfork  registers pthread_atfork handlers (before the tracer does its
 *           own) that allocate: 7776 bytes in prepare, 7777 in the child
 *           (the raw_fork test's atfork case)
 *   fini_fork  forks in this library's destructor, which runs after the
 *           tracer's (glibc has dropped the tracer's fork handlers by then):
 *           the child makes 500 allocations of 2222 bytes and _exits with 7
 */
#define _GNU_SOURCE /* syscall, CLONE_* */
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

__attribute__((noinline)) static void vfork_child(long kept)
{
	long pid = syscall(SYS_clone, CLONE_VM | CLONE_VFORK | SIGCHLD, 0, 0, 0, 0);
	if (pid == 0) {
		kept = 7777;
		__asm__ volatile("" : "+r"(kept));
		syscall(SYS_exit_group, 5);
	}
	int status = 0;
	waitpid(-1, &status, 0);
	printf("early: child status %d, kept %ld\n", WEXITSTATUS(status), kept);
	fflush(stdout);
}

static void *volatile kept; /* so that no allocation is elided */

static void fork_child(int raw, void (*end)(int))
{
	pid_t pid = raw ? (pid_t)syscall(SYS_fork) : fork();
	if (pid == 0) {
		for (int i = 0; i < 500; i++) {
			kept = malloc(2222);
			free(kept);
		}
		end(7);
	}
	int status = 0;
	waitpid(pid, &status, 0);
	printf("early: child status %d\n", WEXITSTATUS(status));
	fflush(stdout);
}

static void prepare_allocates(void)
{
	kept = malloc(7776);
	free(kept);
}

static void child_allocates(void)
{
	kept = malloc(7777);
	free(kept);
}

__attribute__((constructor)) static void early(void)
{
	const char *what = getenv("GITTRACE_TEST_EARLY");
	if (!what)
		return;
	if (!strcmp(what, "vfork"))
		vfork_child(getpid() % 1 + 42);
	if (!strcmp(what, "atfork"))
		pthread_atfork(prepare_allocates, NULL, child_allocates);
	if (!strcmp(what, "fork") || !strcmp(what, "raw_fork"))
		fork_child(!strcmp(what, "raw_fork"), exit);
	if (!strcmp(what, "exec")) {
		char *const sh[] = {"sh", "-c", "exit 4", NULL};
		unsetenv("GITTRACE_TEST_EARLY"); /* the shell loads this library too */
		syscall(SYS_execve, "/bin/sh", sh, environ);
	}
}

__attribute__((destructor)) static void late(void)
{
	const char *what = getenv("GITTRACE_TEST_EARLY");
	if (what && !strcmp(what, "fini_fork"))
		fork_child(0, _exit);
}
