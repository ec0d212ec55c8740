/*
 * The unit tests' CHECK macro: reports the failing expression and line,
 * counts failures, and lets the test go on; main returns check_failures.
 */
#ifndef GT_TEST_CHECK_H
#define GT_TEST_CHECK_H

#include <stdio.h>

static int check_failures;

#define CHECK(cond)                                                                                \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);   \
			check_failures++;                                                          \
		}                                                                                  \
	} while (0)

#endif /* GT_TEST_CHECK_H */
