/*
 * The command a variant runs. Settings travel in the environment (env.h),
 * and git ranks its own `-c` options above the environment: when a git
 * command pins a key with `-c` among its global options, a variant that
 * sets the key would change nothing. (A variant of git's default windows
 * measured "no difference" against `git -c core.packedGitWindowSize=4k
 * cat-file …`, which ran 14× slower than with defaults.) For such keys the
 * variant's value replaces the command's in the variant's own copy of the
 * command; every other word stays as given.
 */
#ifndef GT_AB_COMMAND_H
#define GT_AB_COMMAND_H

#include "variant.h"

/* A malloc'd, NULL-terminated copy of argv for v. Free with gt_ab_command_free. */
char **gt_ab_command_for(const struct gt_ab_variant *v, char *const *argv);

void gt_ab_command_free(char **argv);

#endif /* GT_AB_COMMAND_H */
