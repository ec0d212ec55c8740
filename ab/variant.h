/*
 * A variant: the one thing that differs between the runs being compared,
 * an allocator (preloaded), git settings (passed in the environment), or
 * both. The first variant on the command line is the baseline.
 */
#ifndef GT_AB_VARIANT_H
#define GT_AB_VARIANT_H

#include <stddef.h>

struct gt_ab_setting {
	char *key;   /* e.g. "core.packedGitLimit" */
	char *value; /* e.g. "128m" */
};

struct gt_ab_variant {
	char *name;    /* [A-Za-z0-9._+-]+, unique among the variants */
	char *alloc;   /* allocator as given ("mimalloc", a path...); NULL: not set */
	char *preload; /* library to preload, from gt_ab_allocator_resolve;
			  NULL: the system allocator */
	struct gt_ab_setting *settings;
	size_t nsettings;
	int lone_alloc; /* from a lone --alloc: takes the baseline's git
			   settings (gt_ab_variants_compose) */
};

/*
 * `--alloc NAME`: a variant named after the allocator ("system",
 * "mimalloc", "jemalloc"; for a path, the file name without "lib" and
 * ".so…": /x/libtcmalloc.so.4 -> "tcmalloc"). Dies as
 * gt_ab_allocator_resolve does.
 */
void gt_ab_variant_from_alloc(struct gt_ab_variant *v, const char *alloc);

/*
 * `--variant 'NAME=SPEC'`: SPEC is a whitespace-separated list of
 * `-c KEY=VALUE` (a git setting; `-c KEY` alone means "true", as in git)
 * and `--alloc NAME`; it may be empty (NAME= is the plain command). Values
 * cannot contain whitespace. Dies with a usage error (exit 2) on bad
 * syntax.
 */
void gt_ab_variant_from_spec(struct gt_ab_variant *v, const char *spec);

/*
 * Adds the words of SPEC (as in `--variant`, without NAME=) to v: used for
 * `--common` too. where names the source in messages ("variant 'a'").
 */
void gt_ab_variant_parse_spec(struct gt_ab_variant *v, const char *spec, const char *where);

/* Appends the git setting KEY=VALUE (both copied). */
void gt_ab_variant_add_setting(struct gt_ab_variant *v, const char *key, const char *value);

/* The baseline added when only one variant is given: "system" for an
 * allocator variant, else "default"; nothing changed either way. */
void gt_ab_variant_baseline(struct gt_ab_variant *v, const struct gt_ab_variant *other);

/* Dies with a usage error when two variants share a name. */
void gt_ab_variants_check_unique(const struct gt_ab_variant *v, size_t n);

void gt_ab_variant_release(struct gt_ab_variant *v);

#endif /* GT_AB_VARIANT_H */
