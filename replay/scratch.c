/* The scratch directory and the process that removes it (see scratch.h). */
#define _GNU_SOURCE
#include "scratch.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ab/workdir.h"
#include "die.h"

static volatile pid_t child;

/* The signals someone sends to this process alone, passed on. */
static void pass_on(int sig)
{
	kill(child, sig);
}

static void set_handler(int sig, void (*handler)(int))
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

/* Ends this process as the child ended: its exit status, or its signal. */
static _Noreturn void end_as(int status)
{
	if (WIFEXITED(status))
		exit(WEXITSTATUS(status));
	int sig = WTERMSIG(status);
	/* The child dumped its core already, if it was to dump one. */
	setrlimit(RLIMIT_CORE, &(struct rlimit){0, 0});
	set_handler(sig, SIG_DFL);
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	exit(128 + sig); /* a signal that does not kill (SIGCHLD, SIGSTOP's kind) */
}

const char *gt_replay_scratch_open(void)
{
	const char *base = getenv("TMPDIR");
	if (!base || !*base)
		base = "/tmp";
	char *dir;
	if (asprintf(&dir, "%s/gittrace-replay.XXXXXX", base) < 0)
		gt_die("out of memory");
	if (!mkdtemp(dir))
		gt_die("cannot create a temporary directory in '%s': %s", base, strerror(errno));
	/* Held until this process's handlers are set: a signal right after
	 * the fork would otherwise end it before it could clean up. */
	sigset_t held, before;
	sigemptyset(&held);
	sigaddset(&held, SIGINT);
	sigaddset(&held, SIGQUIT);
	sigaddset(&held, SIGTERM);
	sigaddset(&held, SIGHUP);
	sigprocmask(SIG_BLOCK, &held, &before);
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		rmdir(dir);
		gt_die("cannot start the replay: %s", strerror(errno));
	}
	if (pid == 0) {
		sigprocmask(SIG_SETMASK, &before, NULL);
		return dir;
	}
	child = pid;
	/* The terminal's SIGINT and SIGQUIT go to the child as well: this
	 * process outlives it to clean up. */
	set_handler(SIGINT, SIG_IGN);
	set_handler(SIGQUIT, SIG_IGN);
	set_handler(SIGTERM, pass_on);
	set_handler(SIGHUP, pass_on);
	sigprocmask(SIG_SETMASK, &before, NULL);
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			gt_die("cannot wait for the replay: %s", strerror(errno));
	gt_ab_tree_remove(dir, 1);
	end_as(status);
}
