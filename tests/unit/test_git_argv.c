/*
 * Unit test: git's command line (include/gittrace/git_argv.h): the
 * subcommand after git's global options, in both the `git NAME` and the
 * dashed `git-NAME` forms, and none where there is none.
 */
#include <string.h>

#include "../check.h"
#include "gittrace/git_argv.h"

/* The subcommand of the words of a command line, "" for none. */
static const char *sub(const char *const *argv)
{
	size_t argc = 0;
	while (argv[argc])
		argc++;
	const char *s = gt_git_subcommand(argc, argv);
	return s ? s : "";
}

#define SUB(...) sub((const char *const[]){__VA_ARGS__, NULL})

int main(void)
{
	CHECK(!strcmp(SUB("git", "gc", "-q"), "gc"));
	CHECK(!strcmp(SUB("git", "-C", "repo.git", "-c", "pack.threads=2", "repack", "-adf"),
		      "repack"));
	CHECK(!strcmp(SUB("/usr/lib/git-core/git", "pack-objects", "--revs"), "pack-objects"));
	CHECK(!strcmp(SUB("git", "--git-dir=x", "--no-pager", "-p", "log"), "log"));
	CHECK(!strcmp(SUB("git", "--git-dir", "gc", "log"), "log")); /* gc is the directory */
	CHECK(!strcmp(SUB("git", "--config-env", "a.b=V", "maintenance", "run"), "maintenance"));
	CHECK(!strcmp(SUB("/usr/lib/git-core/git-upload-pack", "."), "upload-pack"));
	CHECK(!strcmp(SUB("git"), ""));
	CHECK(!strcmp(SUB("git", "--version"), ""));
	CHECK(!strcmp(SUB("git", "-C"), ""));
	CHECK(!strcmp(SUB("git-"), ""));
	CHECK(!strcmp(SUB("sh", "-c", "git gc"), ""));
	CHECK(!strcmp(SUB("/usr/bin/legit", "gc"), ""));
	return check_result("git_argv");
}
