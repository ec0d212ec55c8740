/*
 * child_ok(): waits for a child of the stress programs (tests/progs/
 * stress_fork.c, tests/behaviour/stress_threads.c), through EINTR.
 */
#ifndef GT_TEST_CHILD_OK_H
#define GT_TEST_CHILD_OK_H

#include <errno.h>
#include <sys/types.h>
#include <sys/wait.h>

/* Returns 1 when the child pid exited with status 0, else 0 (including a
 * failed wait). */
static inline int child_ok(pid_t pid)
{
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 0;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

#endif /* GT_TEST_CHILD_OK_H */
