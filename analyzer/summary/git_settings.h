/*
 * The pack window settings a git command was given on its command line:
 * `git -c core.packedGitLimit=1m ...`. git passes them down to the
 * commands it runs (in GIT_CONFIG_PARAMETERS, which the trace does not
 * keep: it may hold credentials), so a child has its root's. Advice to
 * unset them in a config file would miss there: the command sets them.
 */
#ifndef GT_GIT_SETTINGS_H
#define GT_GIT_SETTINGS_H

#include <stddef.h>

#include "model.h"

/* Writes them to buf as `-c KEY=VALUE` words ("" if none). Returns buf. */
const char *gt_window_settings_given(const struct gt_image *img, char *buf, size_t size);

/* A repository option of a git command line: -C DIR, --git-dir=DIR, --bare, ... */
struct gt_git_option {
	const char *name;
	const char *value; /* the next word's, for -C, --git-dir and --work-tree; else NULL */
};

/* More than a command line holds in practice: the rest are left out. */
#define GT_GIT_REPO_OPTIONS_MAX 32

/*
 * The options of img's git command line that say where its repository is
 * (-C, --git-dir, --work-tree, --bare), in order, at most max of them: the
 * one reading of them that advice and git config lookups share. 0 if img
 * runs no git. They point into img's argv.
 */
size_t gt_git_repo_options(const struct gt_image *img, struct gt_git_option *opts, size_t max);

/*
 * `git` with img's repository options (gt_git_repo_options), quoted: how advice
 * to run `git config` reaches the repository the command used, from the
 * directory it ran in. Just "git" if none (or img runs no git). Whole
 * words only: those that do not fit size are left out. Returns buf.
 */
const char *gt_git_with_repo_options(const struct gt_image *img, char *buf, size_t size);

#endif /* GT_GIT_SETTINGS_H */
