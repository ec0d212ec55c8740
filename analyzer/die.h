/*
 * How gittrace-report fails: one line on stderr, then a documented exit
 * status (0 success, 1 bad input, 2 usage). Also the allocation helpers
 * that cannot return NULL, since running out of memory is fatal here too.
 */
#ifndef GT_DIE_H
#define GT_DIE_H

#include <stddef.h>

#define GT_EXIT_BAD_INPUT 1
#define GT_EXIT_USAGE	  2

/*
 * The name messages start with: "gittrace-report" unless a program that
 * links the analyzer's library (gittrace-replay) sets its own, first thing.
 * name must outlive the program.
 */
void gt_set_program_name(const char *name);

/* Prints "gittrace-report: <message>" and exits with status 1. */
_Noreturn void gt_die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Test-only: gt_die() calls hook after printing its message, before it
 * exits. The fuzz harness (tests/fuzz/) sets a hook that longjmps back to
 * its input loop, so one bad input does not end the fuzzing process; the
 * hook must not return (gt_die exits if it does). gittrace-report never
 * sets one. NULL (the default): plain exit.
 */
void gt_set_die_hook(void (*hook)(void));

/* Prints "gittrace-report: <message>", a hint to --help, and exits 2. */
_Noreturn void gt_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Prints "gittrace-report: warning: <message>" and returns. */
void gt_warnf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Holds warnings back while a trace is read, until gt_release_warnings
 * prints them in order: if the input proves bad meanwhile, gt_die drops
 * them and its one line stands alone.
 */
void gt_hold_warnings(void);
void gt_release_warnings(void);

/* An internal inconsistency: prints where and aborts. Never for bad input. */
#define BUG(msg) gt_bug(__FILE__, __LINE__, msg)
_Noreturn void gt_bug(const char *file, int line, const char *msg);

/*
 * Hands the calling thread's messages to sink instead of printing them:
 * text is what would follow the "warning: " or the program's name, fatal
 * says gt_die() sent it. For a fatal message sink must not return. The
 * decoding thread (read/decoder.c) queues its messages this way, so that
 * they print in file order among the model's. NULL: print (the default).
 */
void gt_set_thread_message_sink(void (*sink)(void *ctx, int fatal, char *text), void *ctx);

/* Called before any message is printed: the progress line uses it to clear
 * itself, so a warning never lands in the middle of it. NULL: none. */
void gt_set_before_message(void (*hook)(void));

/* malloc/calloc/realloc/strndup that die with "out of memory" instead of
 * returning NULL. gt_xcalloc also checks n * size for overflow. */
void *gt_xmalloc(size_t size);
void *gt_xcalloc(size_t n, size_t size);
void *gt_xrealloc(void *p, size_t size);
char *gt_xstrndup(const char *s, size_t len);

#endif /* GT_DIE_H */
