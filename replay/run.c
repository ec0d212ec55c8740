/* Starting the replayer and reading its one line (see run.h). */
#define _GNU_SOURCE
#include "run.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "die.h"

extern char **environ;

#define RUNNER "gittrace-replay-run"

char *gt_replay_runner_path(void)
{
	char self[PATH_MAX], *path;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = '\0';
		char *slash = strrchr(self, '/');
		if (slash && asprintf(&path, "%.*s/" RUNNER, (int)(slash - self), self) >= 0) {
			if (access(path, X_OK) == 0)
				return path;
			free(path);
		}
	}
	if (access(GITTRACE_REPLAY_RUNNER, X_OK) < 0)
		gt_die("cannot find the replayer '%s': %s", GITTRACE_REPLAY_RUNNER,
		       strerror(errno));
	return gt_xstrndup(GITTRACE_REPLAY_RUNNER, strlen(GITTRACE_REPLAY_RUNNER));
}

/* This environment without LD_PRELOAD, plus LD_PRELOAD=preload if any. */
static char **child_env(const char *preload, char **preload_var)
{
	size_t n = 0;
	while (environ[n])
		n++;
	char **env = gt_xcalloc(n + 2, sizeof(*env));
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (strncmp(environ[i], "LD_PRELOAD=", 11))
			env[k++] = environ[i];
	*preload_var = NULL;
	if (preload) {
		if (asprintf(preload_var, "LD_PRELOAD=%s", preload) < 0)
			gt_die("out of memory");
		env[k++] = *preload_var;
	}
	return env;
}

static void parse(const char *line, const char *what, struct gt_replay_run *out)
{
	const char *p = line;
	char *end;
	out->seconds = strtod(p, &end);
	int ok = end != p;
	p = end;
	out->peak_rss_bytes = strtoull(p, &end, 10);
	ok = ok && end != p;
	for (int fn = 0; ok && fn < GT_REPLAY_FNS; fn++) {
		p = end;
		out->calls[fn] = strtoull(p, &end, 10);
		ok = end != p;
	}
	p = end;
	out->emulated = ok ? (unsigned)strtoul(p, &end, 10) : 0;
	ok = ok && end != p;
	if (!ok || (*end != '\n' && *end != '\0'))
		gt_die("the replayer under %s printed '%s', not its measures", what, line);
}

void gt_replay_run(const char *runner, const char *preload, const char *ops,
		   struct gt_replay_run *out)
{
	const char *what = preload ? preload : "the system allocator";
	char *preload_var;
	char **env = child_env(preload, &preload_var);
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) < 0)
		gt_die("cannot create a pipe: %s", strerror(errno));
	fflush(NULL);
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0)
		gt_die("cannot start the replayer: %s", strerror(errno));
	if (pid == 0) {
		/* A replay stopped by a signal takes its replayer with it. */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
			_exit(127);
		dup2(fds[1], STDOUT_FILENO);
		execve(runner, (char *[]){(char *)runner, (char *)ops, NULL}, env);
		fprintf(stderr, "gittrace-replay: cannot run '%s': %s\n", runner, strerror(errno));
		_exit(127);
	}
	close(fds[1]);
	char line[1024];
	size_t len = 0;
	ssize_t n;
	while ((n = read(fds[0], line + len, sizeof(line) - 1 - len)) > 0 ||
	       (n < 0 && errno == EINTR))
		len += n > 0 ? (size_t)n : 0;
	line[len] = '\0';
	close(fds[0]);
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			gt_die("cannot wait for the replayer: %s", strerror(errno));
	free(preload_var);
	free(env);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		gt_die("the replay under %s failed (%s %d)", what,
		       WIFEXITED(status) ? "exit status" : "signal",
		       WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
	parse(line, what, out);
}
