/*
 * Fatal errors, warnings and never-NULL allocation for gittrace-report.
 * Messages follow git's style: what failed first, lowercase, no full stop.
 */
#include "die.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void (*before_message)(void);
static void (*die_hook)(void);
static const char *program = "gittrace-report";
static _Thread_local void (*thread_sink)(void *ctx, int fatal, char *text);
static _Thread_local void *thread_sink_ctx;

void gt_set_program_name(const char *name)
{
	program = name;
}

void gt_set_before_message(void (*hook)(void))
{
	before_message = hook;
}

void gt_set_die_hook(void (*hook)(void))
{
	die_hook = hook;
}

void gt_set_thread_message_sink(void (*sink)(void *ctx, int fatal, char *text), void *ctx)
{
	thread_sink = sink;
	thread_sink_ctx = ctx;
}

/* The message as text for a sink; NULL if it cannot be had. */
static char *format(const char *fmt, va_list ap)
{
	va_list again;
	va_copy(again, ap);
	int n = vsnprintf(NULL, 0, fmt, ap);
	/* Plain malloc: gt_xmalloc's failure would come back here. */
	char *text = n < 0 ? NULL : malloc((size_t)n + 1);
	if (text)
		vsnprintf(text, (size_t)n + 1, fmt, again);
	va_end(again);
	return text;
}

static void vreport(const char *prefix, const char *fmt, va_list ap)
{
	fflush(stdout);
	if (before_message)
		before_message();
	fprintf(stderr, "%s: %s", program, prefix);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

static void __attribute__((format(printf, 2, 3))) print(const char *prefix, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport(prefix, fmt, ap);
	va_end(ap);
}

/* Warnings held while a trace is read (gt_hold_warnings), in order. */
static struct {
	int on;
	char **text;
	size_t n, cap;
	size_t lost; /* out of memory */
} held;

void gt_hold_warnings(void)
{
	held.on = 1;
}

static void hold(char *text)
{
	if (held.n == held.cap) {
		size_t cap = held.cap ? 2 * held.cap : 16;
		/* Plain realloc: gt_xrealloc's failure would come back here. */
		char **grown = realloc(held.text, cap * sizeof(*held.text));
		if (!grown) {
			free(text);
			text = NULL;
		} else {
			held.text = grown;
			held.cap = cap;
		}
	}
	if (text)
		held.text[held.n++] = text;
	else
		held.lost++;
}

static void drop_held(void)
{
	for (size_t i = 0; i < held.n; i++)
		free(held.text[i]);
	free(held.text);
	memset(&held, 0, sizeof(held));
}

void gt_release_warnings(void)
{
	for (size_t i = 0; i < held.n; i++)
		print("warning: ", "%s", held.text[i]);
	if (held.lost)
		print("warning: ", "%zu more warnings lost: out of memory", held.lost);
	drop_held();
}

void gt_die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (thread_sink) {
		char *text = format(fmt, ap);
		va_end(ap); /* before the sink, which does not return */
		thread_sink(thread_sink_ctx, 1, text);
		BUG("a sink returned from a fatal message");
	}
	drop_held(); /* the input is bad: this line alone says what is wrong */
	vreport("", fmt, ap);
	va_end(ap);
	if (die_hook)
		die_hook();
	/*
	 * _exit, not exit: another thread may be inside a library whose
	 * destructors exit() would run under it. The warmer (symbols/warm.c)
	 * in libdw's debuginfod client had OpenSSL torn down beneath it:
	 * SIGSEGV in 16 of 20 runs on a corrupt trace. Nothing of ours needs
	 * exit()'s work but the flush.
	 */
	fflush(stdout);
	fflush(stderr);
	_exit(GT_EXIT_BAD_INPUT);
}

void gt_usage_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("", fmt, ap);
	va_end(ap);
	fprintf(stderr, "Try '%s --help' for more information.\n", program);
	exit(GT_EXIT_USAGE);
}

void gt_warnf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (thread_sink) {
		thread_sink(thread_sink_ctx, 0, format(fmt, ap));
	} else if (held.on) {
		hold(format(fmt, ap));
	} else {
		vreport("warning: ", fmt, ap);
	}
	va_end(ap);
}

void gt_bug(const char *file, int line, const char *msg)
{
	fprintf(stderr, "%s: BUG: %s:%d: %s\n", program, file, line, msg);
	abort();
}

void *gt_xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);
	if (!p)
		gt_die("out of memory (%zu bytes)", size);
	return p;
}

void *gt_xcalloc(size_t n, size_t size)
{
	if (size && n > (size_t)-1 / size)
		gt_die("out of memory (%zu × %zu bytes)", n, size);
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		gt_die("out of memory (%zu × %zu bytes)", n, size);
	return p;
}

void *gt_xrealloc(void *p, size_t size)
{
	void *q = realloc(p, size ? size : 1);
	if (!q)
		gt_die("out of memory (%zu bytes)", size);
	return q;
}

char *gt_xstrndup(const char *s, size_t len)
{
	char *p = gt_xmalloc(len + 1);
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}
