/*
 * The environment of a variant's runs: ours, with the variant's allocator
 * prepended to LD_PRELOAD and its git settings appended to the
 * GIT_CONFIG_COUNT / GIT_CONFIG_KEY_<n> / GIT_CONFIG_VALUE_<n> list (git
 * 2.31+), and to GIT_CONFIG_PARAMETERS where that is set. Settings travel
 * in the environment rather than as `-c` on the command line so that the
 * command stays the same for every variant and reaches the git processes
 * started by scripts or by git itself.
 */
#ifndef GT_AB_ENV_H
#define GT_AB_ENV_H

#include "variant.h"

/*
 * Returns a malloc'd, NULL-terminated copy of base (e.g. environ) changed
 * for v. first_preload, if not NULL, goes in front of LD_PRELOAD, before
 * the variant's allocator (--explain puts the tracer there, so that it
 * sees the calls and forwards them to the allocator). Each "NAME=value" in
 * extra (NULL-terminated, may be NULL) replaces or adds that variable.
 * Dies (exit 1) when base holds a GIT_CONFIG_COUNT that is not a number.
 * Free the result with gt_ab_env_free.
 */
char **gt_ab_env_for(const struct gt_ab_variant *v, char *const *base, const char *first_preload,
		     const char *const *extra);

void gt_ab_env_free(char **env);

#endif /* GT_AB_ENV_H */
