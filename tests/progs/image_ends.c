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
 *   image_ends syscall_execveat  syscall(SYS_execveat) of the same
 *   image_ends vfork     a child made by clone(CLONE_VM | CLONE_VFORK)
 *                        through syscall() ends with syscall(SYS_exit_group,
 *                        5) on its parent's stack; the parent prints the
 *                        child's status (it crashed behind a hook with a
 *                        stack frame: hooks_syscall.c)
 *   image_ends exit_300  exit(300), _exit_300 _exit(300), return_-1 returns
 *                        -1 from main: the statuses a parent sees are 44, 44
 *                        and 255 (the END held 300, 300 and "unknown")
 *   image_ends quick_exit_5  quick_exit(5), whose at_quick_exit handler
 *                        allocates SIZE bytes once more: the report took the
 *                        process for killed
 *   image_ends quick_exit_fork_6  quick_exit(6), whose handler forks a
 *                        child that allocates CALLS blocks more and returns:
 *                        libc ends the child past every hook, and its calls
 *                        and END were lost
 *   image_ends daemon FILE  daemon(1, 1): the parent ends with _exit(0)
 *                        inside libc, past the _exit hook (its END was
 *                        lost); the child allocates CALLS blocks more,
 *                        makes FILE and exits
 *   image_ends quick_exit_forks_4  quick_exit(4), whose handler forks 50
 *                        children that _exit(9), while another thread adds
 *                        atexit handlers: a child that inherited glibc's
 *                        lock of the handler lists held hung
 */
#define _GNU_SOURCE /* syscall, execveat, CLONE_* */
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define CALLS 1000
#define SIZE  4327 /* the size the test counts in the trace */

static void *volatile kept; /* so that no allocation is elided */

static void allocate_once_more(void)
{
	kept = malloc(SIZE);
}

static void fork_and_allocate(void)
{
	pid_t pid = fork();
	if (pid == 0) {
		for (int i = 0; i < CALLS; i++) {
			kept = malloc(SIZE);
			free(kept);
		}
		return;
	}
	int status = 0;
	waitpid(pid, &status, 0);
	printf("child status %d\n", WEXITSTATUS(status));
	fflush(stdout);
}

static void fork_50_children(void)
{
	for (int i = 0; i < 50; i++) {
		pid_t pid = fork();
		if (pid == 0)
			_exit(9);
		waitpid(pid, NULL, 0);
	}
}

static void nothing(void)
{
}

static void *add_atexit_handlers(void *unused)
{
	(void)unused;
	for (;;)
		atexit(nothing);
	return NULL;
}

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
	if (argc == 2 && !strcmp(argv[1], "vfork")) {
		long pid = syscall(SYS_clone, CLONE_VM | CLONE_VFORK | SIGCHLD, 0, 0, 0, 0);
		if (pid == 0)
			syscall(SYS_exit_group, 5);
		int status = 0;
		waitpid(-1, &status, 0);
		printf("child status %d\n", WEXITSTATUS(status));
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "execveat")) {
		execveat(AT_FDCWD, "/bin/sh", sh, environ, 0);
		return 127;
	}
	if (argc == 2 && !strcmp(argv[1], "syscall_execveat")) {
		syscall(SYS_execveat, AT_FDCWD, "/bin/sh", sh, environ, 0);
		return 127;
	}
	if (argc == 2 && !strcmp(argv[1], "exit_300"))
		exit(300);
	if (argc == 2 && !strcmp(argv[1], "_exit_300"))
		_exit(300);
	if (argc == 2 && !strcmp(argv[1], "return_-1"))
		return -1;
	if (argc == 2 && !strcmp(argv[1], "quick_exit_5")) {
		at_quick_exit(allocate_once_more);
		quick_exit(5);
	}
	if (argc == 2 && !strcmp(argv[1], "quick_exit_forks_4")) {
		pthread_t thread;
		at_quick_exit(fork_50_children);
		pthread_create(&thread, NULL, add_atexit_handlers, NULL);
		usleep(20000);
		quick_exit(4);
	}
	if (argc == 3 && !strcmp(argv[1], "daemon")) {
		if (daemon(1, 1))
			return 2;
		for (int i = 0; i < CALLS; i++) {
			kept = malloc(SIZE);
			free(kept);
		}
		FILE *done = fopen(argv[2], "w");
		return done && !fclose(done) ? 0 : 2;
	}
	if (argc == 2 && !strcmp(argv[1], "quick_exit_fork_6")) {
		at_quick_exit(fork_and_allocate);
		quick_exit(6);
	}
	syscall(SYS_exit_group, 3);
	return 0; /* not reached */
}
