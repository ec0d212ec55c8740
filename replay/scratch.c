/* The scratch directory and the process that removes it (see scratch.h). */
#define _GNU_SOURCE
#include "scratch.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
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

/*
 * The signals that end a process by default, which someone may send to
 * this one alone (kill PID, a tool's send_signal): each is passed on to
 * the child, which ends of it, and this process ends as the child did.
 * SIGKILL and SIGSTOP cannot be caught: the child dies with this process
 * then (PR_SET_PDEATHSIG), and only the directory is left.
 */
static const int passed_on[] = {SIGINT,	 SIGQUIT, SIGTERM,   SIGHUP,  SIGUSR1,
				SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU};
#define NPASSED (sizeof(passed_on) / sizeof(passed_on[0]))

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
	for (size_t i = 0; i < NPASSED; i++)
		sigaddset(&held, passed_on[i]);
	sigprocmask(SIG_BLOCK, &held, &before);
	fflush(NULL);
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		rmdir(dir);
		gt_die("cannot start the replay: %s", strerror(errno));
	}
	if (pid == 0) {
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
			_exit(128 + SIGKILL);
		sigprocmask(SIG_SETMASK, &before, NULL);
		return dir;
	}
	child = pid;
	/*
	 * The terminal's SIGINT reaches the child as well: a second one passed
	 * on changes nothing. A signal ignored from the start (SIGINT in a
	 * shell's background job) stays ignored, in the child too.
	 */
	for (size_t i = 0; i < NPASSED; i++) {
		struct sigaction old;
		if (sigaction(passed_on[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
			set_handler(passed_on[i], pass_on);
	}
	sigprocmask(SIG_SETMASK, &before, NULL);
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			gt_die("cannot wait for the replay: %s", strerror(errno));
	gt_ab_tree_remove(dir, 1);
	end_as(status);
}
