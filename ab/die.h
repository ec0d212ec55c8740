/*
 * How gittrace-ab fails: one line on stderr ("gittrace-ab: cannot ...",
 * lowercase, no full stop), then a documented exit status: 1 bad input or a
 * command that cannot be run, 2 usage. A command that ran and failed is not
 * reported here (see method.h: its own status is passed through). Also the
 * allocation helpers that cannot return NULL.
 */
#ifndef GT_AB_DIE_H
#define GT_AB_DIE_H

#include <stddef.h>

#define GT_AB_EXIT_BAD_INPUT 1
#define GT_AB_EXIT_USAGE     2

/*
 * Called by gt_ab_die and gt_ab_usage_error just before exiting, so the
 * scratch directory does not outlive a failed run. NULL (the default) for
 * none. The hook must not call gt_ab_die itself.
 */
extern void (*gt_ab_die_hook)(void);

/*
 * The name messages start with: "gittrace-ab" unless another program that
 * links this library (gittrace-replay, for the allocator names and the
 * statistics) sets its own before anything can fail.
 */
extern const char *gt_ab_program_name;

/* Prints "gittrace-ab: <message>" and exits with status 1. */
_Noreturn void gt_ab_die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* As gt_ab_die, with ": <strerror(errno)>" appended (errno as on entry). */
_Noreturn void gt_ab_die_errno(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Prints "gittrace-ab: <message>", a hint to --help, and exits with status 2. */
_Noreturn void gt_ab_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Prints "gittrace-ab: warning: <message>" and returns. */
void gt_ab_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* malloc/realloc/strdup that die with "out of memory" instead of returning
 * NULL. gt_ab_xreallocarray also checks n * size for overflow. */
void *gt_ab_xmalloc(size_t size);
void *gt_ab_xreallocarray(void *p, size_t n, size_t size);
char *gt_ab_xstrdup(const char *s);

/* A malloc'd printf. */
char *gt_ab_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* GT_AB_DIE_H */
