/*
 * The C tests' checks, shared by every test written in C (tests/unit,
 * tests/html, tests/symbols, tests/ab, tests/progs). A failed check prints
 * where it failed and what it wanted, counts in check_failures, and lets
 * the test go on, so one run shows every mismatch. A test ends with
 * `return check_result("name");` (or `check_failures != 0`).
 *
 * No framework: nothing here allocates or replaces malloc, so the checks
 * work in programs run under the preload too.
 */
#ifndef GT_TEST_CHECK_H
#define GT_TEST_CHECK_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static int check_failures;

/* CHECK(cond): cond holds. */
#define CHECK(cond)                                                                                \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);   \
			check_failures++;                                                          \
		}                                                                                  \
	} while (0)

/* CHECK_NEAR(got, want, tol): |got - want| <= tol (NaN fails). */
#define CHECK_NEAR(got, want, tol)                                                                 \
	do {                                                                                       \
		double g_ = (got), w_ = (want);                                                    \
		if (!(fabs(g_ - w_) <= (tol))) {                                                   \
			fprintf(stderr, "%s:%d: %s = %.6f, want %.6f\n", __FILE__, __LINE__, #got, \
				g_, w_);                                                           \
			check_failures++;                                                          \
		}                                                                                  \
	} while (0)

/* CHECK_STR(got, want): two equal strings, neither NULL. */
#define CHECK_STR(got, want)                                                                       \
	do {                                                                                       \
		const char *gs_ = (got), *ws_ = (want);                                            \
		if (!gs_ || !ws_ || strcmp(gs_, ws_)) {                                            \
			fprintf(stderr, "%s:%d: got '%s', want '%s'\n", __FILE__, __LINE__,        \
				gs_ ? gs_ : "(null)", ws_ ? ws_ : "(null)");                       \
			check_failures++;                                                          \
		}                                                                                  \
	} while (0)

/* CHECK_SAY(cond, what): CHECK that also says on stdout what it checked,
 * "ok: WHAT" or "FAIL: WHAT", for programs whose output is the record of
 * what they checked (and is compared between runs). */
#define CHECK_SAY(cond, what)                                                                      \
	do {                                                                                       \
		int ok_ = !!(cond);                                                                \
		printf("%s: %s\n", ok_ ? "ok" : "FAIL", (what));                                   \
		check_failures += !ok_;                                                            \
	} while (0)

/* check_result(name): says how the checks went (failures on stderr) and
 * returns the test's exit status: 0 when every check held, else 1. */
static inline int check_result(const char *name)
{
	if (check_failures) {
		fprintf(stderr, "%s: %d check(s) failed\n", name, check_failures);
		return 1;
	}
	printf("%s: all checks passed\n", name);
	return 0;
}

#endif /* GT_TEST_CHECK_H */
