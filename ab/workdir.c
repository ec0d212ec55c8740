/* Scratch directory, fresh copies, removal (see workdir.h). */
#define _XOPEN_SOURCE 700
#include "workdir.h"
#include "die.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

char *gt_ab_workdir_create(const char *parent)
{
	if (!parent)
		parent = getenv("TMPDIR");
	if (!parent || !*parent)
		parent = "/tmp";
	char *dir = gt_ab_xasprintf("%s/gittrace-ab.XXXXXX", parent);
	if (!mkdtemp(dir))
		gt_ab_die_errno("cannot create a directory in '%s'", parent);
	return dir;
}

void gt_ab_tree_copy(const char *from, const char *to)
{
	gt_ab_tree_remove(to, 0);
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		gt_ab_die_errno("cannot fork");
	if (!pid) {
		execlp("cp", "cp", "-a", "--", from, to, (char *)NULL);
		fprintf(stderr, "gittrace-ab: cannot run 'cp': %s\n", strerror(errno));
		_exit(127);
	}
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			gt_ab_die_errno("cannot wait for 'cp'");
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		gt_ab_die("cannot copy '%s' to '%s' (cp -a failed)", from, to);
}

static int quiet_removal;

static int remove_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	int r = type == FTW_DP ? rmdir(path) : unlink(path);
	if (r < 0 && errno != ENOENT) {
		if (!quiet_removal)
			gt_ab_die_errno("cannot remove '%s'", path);
		gt_ab_warn("cannot remove '%s': %s", path, strerror(errno));
	}
	return 0;
}

void gt_ab_tree_remove(const char *path, int quiet)
{
	struct stat st;
	if (lstat(path, &st) < 0) {
		if (errno == ENOENT)
			return;
		gt_ab_die_errno("cannot remove '%s'", path);
	}
	quiet_removal = quiet;
	if (nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS) < 0) {
		if (!quiet)
			gt_ab_die_errno("cannot remove '%s'", path);
		gt_ab_warn("cannot remove '%s': %s", path, strerror(errno));
	}
}
