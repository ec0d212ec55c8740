/* One measured run of the command (see spawn.h). */
#define _GNU_SOURCE
#include "spawn.h"
#include "die.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

const char *const gt_ab_metric_keys[GT_AB_METRICS] = {
	"wall_s", "user_s", "sys_s", "maxrss_kib", "minflt", "majflt",
};

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double tv_s(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

/* What the child failed to do, sent to the parent with errno. */
enum stage { STAGE_CHDIR, STAGE_DUP, STAGE_EXEC };

/* In the child: report the stage and errno through the pipe and leave
 * without running our atexit handlers or flushing our stdio a second time. */
static _Noreturn void child_fail(int fd, enum stage stage)
{
	int msg[2] = {stage, errno};
	ssize_t n = write(fd, msg, sizeof(msg));
	(void)n;
	_exit(127);
}

static void child_dup(int from, int to, int pipe_fd)
{
	if (from >= 0 && from != to && dup2(from, to) < 0)
		child_fail(pipe_fd, STAGE_DUP);
}

int gt_ab_spawn(char *const argv[], char *const envp[], const struct gt_ab_spawn_io *io,
		struct gt_ab_sample *out)
{
	int pfd[2];
	if (pipe2(pfd, O_CLOEXEC) < 0)
		gt_ab_die_errno("cannot create a pipe");
	fflush(NULL); /* the child must not inherit unwritten output */

	double t0 = now_s();
	pid_t pid = fork();
	if (pid < 0)
		gt_ab_die_errno("cannot fork");
	if (!pid) {
		close(pfd[0]);
		if (io->cwd && chdir(io->cwd) < 0)
			child_fail(pfd[1], STAGE_CHDIR);
		child_dup(io->in_fd, 0, pfd[1]);
		child_dup(io->out_fd, 1, pfd[1]);
		child_dup(io->err_fd, 2, pfd[1]);
		execvpe(argv[0], argv, envp);
		child_fail(pfd[1], STAGE_EXEC);
	}
	close(pfd[1]);
	int status;
	struct rusage ru;
	pid_t r;
	do
		r = wait4(pid, &status, 0, &ru);
	while (r < 0 && errno == EINTR);
	double t1 = now_s();
	if (r < 0)
		gt_ab_die_errno("cannot wait for '%s'", argv[0]);

	int msg[2];
	ssize_t n;
	do
		n = read(pfd[0], msg, sizeof(msg));
	while (n < 0 && errno == EINTR);
	close(pfd[0]);
	if (n == (ssize_t)sizeof(msg)) {
		errno = msg[1];
		if (msg[0] == STAGE_CHDIR)
			gt_ab_die_errno("cannot enter '%s'", io->cwd);
		if (msg[0] == STAGE_DUP)
			gt_ab_die_errno("cannot redirect the output of '%s'", argv[0]);
		gt_ab_die_errno("cannot run '%s'", argv[0]);
	}

	out->m[GT_AB_WALL] = t1 - t0;
	out->m[GT_AB_USER] = tv_s(ru.ru_utime);
	out->m[GT_AB_SYS] = tv_s(ru.ru_stime);
	out->m[GT_AB_MAXRSS] = (double)ru.ru_maxrss;
	out->m[GT_AB_MINFLT] = (double)ru.ru_minflt;
	out->m[GT_AB_MAJFLT] = (double)ru.ru_majflt;
	out->status = status;
	return 0;
}

const char *gt_ab_status_text(int status)
{
	static char buf[96];
	if (WIFEXITED(status))
		snprintf(buf, sizeof(buf), "failed with exit status %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, sizeof(buf), "was killed by signal %d (%s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else
		snprintf(buf, sizeof(buf), "failed with wait status 0x%x", (unsigned)status);
	return buf;
}

int gt_ab_status_exit_code(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return 1;
}
