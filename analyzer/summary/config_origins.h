/*
 * Where a git process's pack window settings come from, asked of git
 * itself: `git -C CWD [the process's repository options] config -z
 * --show-scope --show-origin --get-regexp '^core\.packedgit(limit|windowsize)$'`,
 * from the directory the process started in. With it, the verdict's advice
 * names the file to change (a core.packedGitLimit line in ~/.gitconfig is
 * the classic case) where a `git config --unset`, which edits the
 * repository's own config, misses.
 *
 * Only on request (gittrace-report --look-up-config; gittrace asks, right
 * after the run): the answer is what this machine's config says now, not
 * something the trace recorded.
 */
#ifndef GT_CONFIG_ORIGINS_H
#define GT_CONFIG_ORIGINS_H

#include <stddef.h>

#include "model.h"

/* One value git found, in the order git reads them (the last one wins). */
struct gt_config_setting {
	char *key;    /* as git prints it, lower case: core.packedgitlimit */
	char *value;  /* "" for a key given without one */
	char *scope;  /* system, global, local, worktree or command */
	char *origin; /* "file:PATH" (PATH relative to the repository when local), "command line:",
			 ... */
};

struct gt_config_origins {
	struct gt_config_setting *v;
	size_t n;
	/* `git -C CWD [options]`, shell-quoted: the repository asked, from anywhere. */
	char *git;
};

/*
 * Parses what the lookup printed (len bytes) into o (empty on entry).
 * Returns 0, or -1 if it is not such output (o is then emptied).
 */
int gt_config_origins_parse(struct gt_config_origins *o, const char *out, size_t len);

/*
 * Runs the lookup for img, a git process (its program if that is an
 * absolute path to a git, else `git` from PATH), from its directory, its
 * output and errors kept from the report's. Returns 0 when git answered
 * (o->n is 0 when nothing sets the keys), -1 when it could not run or
 * failed (o is left empty).
 */
int gt_config_origins_look_up(struct gt_config_origins *o, const struct gt_image *img);

/*
 * `git -C CWD [img's repository options]`, shell-quoted: how the lookup
 * and the advice reach img's repository from anywhere (it keys the
 * summary's lookups too). NULL if img's directory is not known. Free it.
 */
char *gt_config_origins_git(const struct gt_image *img);

void gt_config_origins_release(struct gt_config_origins *o);

#endif /* GT_CONFIG_ORIGINS_H */
