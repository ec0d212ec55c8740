/* Failure reporting and allocation helpers of gittrace-ab (see die.h). */
#include "die.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void (*gt_ab_die_hook)(void);
const char *gt_ab_program_name = "gittrace-ab";

static void vreport(const char *prefix, const char *fmt, va_list ap, const char *suffix)
{
	fprintf(stderr, "%s: %s", gt_ab_program_name, prefix);
	vfprintf(stderr, fmt, ap);
	if (suffix)
		fprintf(stderr, ": %s", suffix);
	fputc('\n', stderr);
}

static _Noreturn void leave(int status)
{
	void (*hook)(void) = gt_ab_die_hook;
	gt_ab_die_hook = NULL; /* a failing hook must not loop */
	if (hook)
		hook();
	exit(status);
}

void gt_ab_die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("", fmt, ap, NULL);
	va_end(ap);
	leave(GT_AB_EXIT_BAD_INPUT);
}

void gt_ab_die_errno(const char *fmt, ...)
{
	const char *err = strerror(errno);
	va_list ap;
	va_start(ap, fmt);
	vreport("", fmt, ap, err);
	va_end(ap);
	leave(GT_AB_EXIT_BAD_INPUT);
}

void gt_ab_usage_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("", fmt, ap, NULL);
	va_end(ap);
	fprintf(stderr, "try '%s --help' for more information\n", gt_ab_program_name);
	leave(GT_AB_EXIT_USAGE);
}

void gt_ab_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("warning: ", fmt, ap, NULL);
	va_end(ap);
}

void *gt_ab_xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);
	if (!p)
		gt_ab_die("out of memory");
	return p;
}

void *gt_ab_xreallocarray(void *p, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		gt_ab_die("out of memory");
	size_t bytes = n * size;
	p = realloc(p, bytes ? bytes : 1);
	if (!p)
		gt_ab_die("out of memory");
	return p;
}

char *gt_ab_xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(gt_ab_xmalloc(n), s, n);
}

char *gt_ab_xasprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		gt_ab_die("cannot format a message");
	char *s = gt_ab_xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}
