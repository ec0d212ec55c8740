/*
 * Unit test: what the verdict's advice takes from a git command line
 * (git_settings.h): the window settings given with -c, and git with the
 * options that say where the repository is, so that `git config` advice
 * reaches the repository the command used.
 */
#include <string.h>

#include "../check.h"
#include "git_settings.h"

/* git_with(ARGS...): gt_git_with_repo_options of the command line ARGS. */
static const char *git_with(size_t argc, char **argv)
{
	static char buf[256];
	struct gt_image img;
	memset(&img, 0, sizeof(img));
	img.argc = argc;
	img.argv = argv;
	return gt_git_with_repo_options(&img, buf, sizeof(buf));
}

#define GIT_WITH(...)                                                                              \
	git_with(sizeof((char *[]){__VA_ARGS__}) / sizeof(char *), (char *[]){__VA_ARGS__})

int main(void)
{
	CHECK(!strcmp(GIT_WITH("git", "log"), "git"));
	CHECK(!strcmp(GIT_WITH("git", "-C", "g.git", "log", "-C"), "git -C g.git"));
	CHECK(!strcmp(GIT_WITH("/usr/bin/git", "-C", "a b", "-c", "x=1", "-C", "c", "gc"),
		      "git -C 'a b' -C c"));
	CHECK(!strcmp(GIT_WITH("git", "--git-dir=d.git", "--work-tree", "w", "--bare", "status"),
		      "git --git-dir=d.git --work-tree w --bare"));
	/* Not git's, or only options after the subcommand: plain git. */
	CHECK(!strcmp(GIT_WITH("sh", "-C", "x"), "git"));
	CHECK(!strcmp(GIT_WITH("git"), "git"));
	/* A value missing at the end of the options: git refused the command. */
	CHECK(!strcmp(GIT_WITH("git", "-C"), "git"));

	char given[160];
	struct gt_image img;
	memset(&img, 0, sizeof(img));
	char *argv[] = {"git",	 "-c", "core.packedGitLimit=1m", "-c", "user.name=x", "-C",
			"g.git", "log"};
	img.argc = sizeof(argv) / sizeof(argv[0]);
	img.argv = argv;
	CHECK(!strcmp(gt_window_settings_given(&img, given, sizeof(given)),
		      "-c core.packedGitLimit=1m"));
	return check_result("test_git_settings");
}
