/*
 * Runs the measured command once: fork, exec, wait4, with the clock read
 * just before the fork and just after wait4 returns, and nothing else in
 * between (an exec failure is learnt after the wait, from a pipe).
 */
#ifndef GT_AB_SPAWN_H
#define GT_AB_SPAWN_H

#include "sample.h"

struct gt_ab_spawn_io {
	const char *cwd; /* working directory of the command; NULL: ours */
	int in_fd;	 /* the command's stdin, stdout and stderr: */
	int out_fd;	 /* -1 keeps ours */
	int err_fd;
};

/*
 * Runs argv (searched in envp's PATH, as execvpe does) with the
 * environment envp and fills *out. The rusage covers the command and every
 * descendant it waited for (Linux's wait4), so git's children count.
 * Returns 0 when the command ran, whatever its exit status; dies with
 * "cannot run 'argv[0]': <reason>" (exit 1) when it could not be started.
 */
int gt_ab_spawn(char *const argv[], char *const envp[], const struct gt_ab_spawn_io *io,
		struct gt_ab_sample *out);

/*
 * Describes a wait status for messages: "failed with exit status 3" or
 * "was killed by signal 9 (Killed)". Returns a static buffer.
 */
const char *gt_ab_status_text(int status);

/*
 * The exit status that passes a wait status through: the exit code, or
 * 128 + signal number as a shell reports it.
 */
int gt_ab_status_exit_code(int status);

#endif /* GT_AB_SPAWN_H */
