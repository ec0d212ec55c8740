/*
 * git's command line as git.c's handle_options reads it: global options,
 * then the subcommand. One definition for the programs that read a git
 * argv: gittrace-ab rewrites the `-c` values of the command it runs, the
 * analyzer names the subcommand of a traced process.
 */
#ifndef GITTRACE_GIT_ARGV_H
#define GITTRACE_GIT_ARGV_H

#include <stddef.h>
#include <string.h>

/* The last path component of path. */
static inline const char *gt_git_basename(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

/* git's global options that take the next word as their value. */
static inline int gt_git_option_takes_value(const char *word)
{
	static const char *const with_value[] = {"-C",
						 "-c",
						 "--git-dir",
						 "--work-tree",
						 "--namespace",
						 "--super-prefix",
						 "--config-env",
						 "--attr-source",
						 "--shallow-file"};
	for (size_t i = 0; i < sizeof(with_value) / sizeof(with_value[0]); i++)
		if (strcmp(word, with_value[i]) == 0)
			return 1;
	return 0;
}

/* Options git runs as a command (help, version): the global options end there. */
static inline int gt_git_option_ends(const char *word)
{
	return !strcmp(word, "-h") || !strcmp(word, "--help") || !strcmp(word, "-v") ||
	       !strcmp(word, "--version");
}

/*
 * The index of the first word after git's global options in argv[0..argc)
 * (argv[0] is git itself); argc if there is none.
 */
static inline size_t gt_git_options_end(size_t argc, const char *const *argv)
{
	size_t i = 1;
	while (i < argc && argv[i][0] == '-' && !gt_git_option_ends(argv[i]))
		i += gt_git_option_takes_value(argv[i]) ? 2 : 1;
	return i < argc ? i : argc;
}

/*
 * The subcommand a git argv runs: `git [options] NAME ...` or a dashed
 * `git-NAME ...` (git-core's programs, git's children). NULL when argv is
 * not git's or names no subcommand.
 */
static inline const char *gt_git_subcommand(size_t argc, const char *const *argv)
{
	if (argc == 0)
		return NULL;
	const char *prog = gt_git_basename(argv[0]);
	if (strncmp(prog, "git-", 4) == 0 && prog[4])
		return prog + 4;
	if (strcmp(prog, "git") != 0)
		return NULL;
	size_t i = gt_git_options_end(argc, argv);
	return i < argc && argv[i][0] != '-' ? argv[i] : NULL;
}

#endif /* GITTRACE_GIT_ARGV_H */
