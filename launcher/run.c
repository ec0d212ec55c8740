/*
 * gittrace-run STATUS_FILE CMD [ARG...]: how the launcher starts the traced
 * command, so that it learns how the command ended. A shell reports a
 * command that signal N killed as status 128+N, the same number as one
 * that exited with 128+N, so the launcher alone could only pass the number
 * on: `sh -c 'kill -SEGV $$'` under gittrace was exit status 139 to its
 * caller (Python's returncode 139, not -11). This runs CMD as its child,
 * waits for it, writes "signal N" or "exit N" to STATUS_FILE, and exits
 * with the shell's number for it; the launcher, once its report is out,
 * dies of signal N itself.
 *
 * It runs untraced, so that the trace's root is still the command: the
 * launcher hands it the command's LD_PRELOAD in GITTRACE_RUN_PRELOAD, which
 * becomes LD_PRELOAD in the child only. While it waits it ignores SIGINT
 * and SIGQUIT, as system() does: Ctrl-C goes to the command, and this must
 * outlive it to say how it ended. The child gets the actions this had.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The command's own variable, not this program's: see above. */
#define PRELOAD_VAR "GITTRACE_RUN_PRELOAD"

static void exec_command(char **argv, const struct sigaction *old_int,
			 const struct sigaction *old_quit)
{
	sigaction(SIGINT, old_int, NULL);
	sigaction(SIGQUIT, old_quit, NULL);
	const char *preload = getenv(PRELOAD_VAR);
	if (preload && (setenv("LD_PRELOAD", preload, 1) < 0 || unsetenv(PRELOAD_VAR) < 0)) {
		perror("gittrace: cannot set the command's LD_PRELOAD");
		_exit(126);
	}
	execvp(argv[0], argv);
	int err = errno;
	/* The statuses a shell gives a command it cannot run. */
	fprintf(stderr, "gittrace: cannot run '%s': %s\n", argv[0], strerror(err));
	_exit(err == ENOENT ? 127 : 126);
}

/* Writes how the command ended; the launcher then passes its number on. */
static void write_end(const char *path, int status)
{
	FILE *f = fopen(path, "w");
	if (!f) {
		perror("gittrace: cannot write the command's status");
		return;
	}
	if (WIFSIGNALED(status))
		fprintf(f, "signal %d\n", WTERMSIG(status));
	else
		fprintf(f, "exit %d\n", WEXITSTATUS(status));
	if (fclose(f) != 0)
		perror("gittrace: cannot write the command's status");
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fputs("usage: gittrace-run STATUS_FILE CMD [ARG...]\n", stderr);
		return 2;
	}
	struct sigaction ignore, old_int, old_quit;
	memset(&ignore, 0, sizeof(ignore));
	ignore.sa_handler = SIG_IGN;
	sigemptyset(&ignore.sa_mask);
	sigaction(SIGINT, &ignore, &old_int);
	sigaction(SIGQUIT, &ignore, &old_quit);

	pid_t pid = fork();
	if (pid < 0) {
		perror("gittrace: cannot start the command");
		return 126;
	}
	if (pid == 0)
		exec_command(argv + 2, &old_int, &old_quit);

	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			perror("gittrace: cannot wait for the command");
			return 126;
		}
	write_end(argv[1], status);
	return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}
