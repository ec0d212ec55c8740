/*
 * gittrace-report: reads a gittrace trace and prints the report (text by
 * default, --json, --folded), writes it as a page (--html) or prints every
 * record (--dump). Option parsing and the read loop live here; everything
 * else is in the files it calls.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "die.h"
#include "dump.h"
#include "model.h"
#include "progress.h"
#include "reader.h"
#include "replay_input.h"
#include "report.h"
#include "summary.h"
#include "symbolize.h"
#include "symbols.h"

#ifndef GITTRACE_VERSION
#define GITTRACE_VERSION "unknown"
#endif

enum mode { MODE_TEXT, MODE_JSON, MODE_FOLDED, MODE_HTML, MODE_DUMP };

static void usage(void)
{
	printf("Usage: gittrace-report [OPTION]... TRACE\n"
	       "Report allocation churn, maps, time shares and call sites of a gittrace trace,\n"
	       "with a verdict: allocator-bound, window-bound or neither.\n"
	       "\n"
	       "  --json              print one JSON object (docs/report-schema.json)\n"
	       "  --folded[=WEIGHT]   print folded stacks for flamegraph.pl/speedscope,\n"
	       "                        WEIGHT 'allocations' (default) or 'bytes'\n"
	       "  --html=FILE         write a self-contained HTML page with timelines and\n"
	       "                        a flame graph to FILE\n"
	       "  --dump              print every record, one per line (docs/report.md)\n"
	       "  --top=N             list N sites per process (default 10, 50 in --html;\n"
	       "                        0 = all)\n"
	       "  --pid=PID           report only the process(es) with this pid\n"
	       "  --replay=FILE       add the predictions of `gittrace replay --json` (FILE,\n"
	       "                        of the same trace) to the verdict's evidence\n"
	       "      --help          display this help and exit\n"
	       "      --version       output version information and exit\n"
	       "\n"
	       "Exit status: 0 success, 1 bad input, 2 usage error. A trace cut short is\n"
	       "reported with a warning and \"complete\": false, not as an error.\n");
}

static long parse_number(const char *opt, const char *s, long max)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (!*s || *end || errno || v < 0 || v > max)
		gt_usage_error("invalid number for %s: '%s'", opt, s);
	return v;
}

/* Matches --name=value or --name value; returns the value or NULL. */
static const char *option_value(const char *name, int argc, char **argv, int *i)
{
	size_t n = strlen(name);
	if (strncmp(argv[*i], name, n))
		return NULL;
	if (argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (argv[*i][n])
		return NULL;
	if (*i + 1 >= argc)
		gt_usage_error("option '%s' requires an argument", name);
	return argv[++*i];
}

static void write_html(const char *file, const struct gt_summary *s, size_t top)
{
	FILE *out = fopen(file, "w");
	if (!out)
		gt_die("cannot open '%s': %s", file, strerror(errno));
	gt_report_html(out, s, top);
	if (fflush(out) || ferror(out)) {
		int e = errno;
		fclose(out);
		gt_die("cannot write '%s': %s", file, strerror(e));
	}
	if (fclose(out))
		gt_die("cannot write '%s': %s", file, strerror(errno));
}

static void summary_add(void *ctx, struct gt_image *img)
{
	gt_summary_add(ctx, img);
}

int main(int argc, char **argv)
{
	enum mode mode = MODE_TEXT;
	int by_bytes = 0;
	long top = -1, pid = -1; /* top < 0: the mode's default */
	const char *path = NULL, *html = NULL, *replay_path = NULL, *v;
	int options_done = 0;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (options_done || a[0] != '-' || !strcmp(a, "-")) {
			if (path)
				gt_usage_error("more than one trace given: '%s'", a);
			path = a;
		} else if (!strcmp(a, "--")) {
			options_done = 1;
		} else if (!strcmp(a, "--help")) {
			usage();
			return 0;
		} else if (!strcmp(a, "--version")) {
			printf("gittrace-report %s (trace format %d.%d)\n", GITTRACE_VERSION,
			       GT_FORMAT_MAJOR, GT_FORMAT_MINOR);
			return 0;
		} else if (!strcmp(a, "--json")) {
			mode = MODE_JSON;
		} else if (!strcmp(a, "--dump")) {
			mode = MODE_DUMP;
		} else if (!strcmp(a, "--folded") || !strcmp(a, "--folded=allocations")) {
			mode = MODE_FOLDED;
			by_bytes = 0;
		} else if (!strcmp(a, "--folded=bytes")) {
			mode = MODE_FOLDED;
			by_bytes = 1;
		} else if ((v = option_value("--html", argc, argv, &i))) {
			mode = MODE_HTML;
			html = v;
		} else if ((v = option_value("--top", argc, argv, &i))) {
			top = parse_number("--top", v, INT_MAX);
		} else if ((v = option_value("--pid", argc, argv, &i))) {
			pid = parse_number("--pid", v, LONG_MAX);
		} else if ((v = option_value("--replay", argc, argv, &i))) {
			replay_path = v;
		} else {
			gt_usage_error("unrecognized option '%s'", a);
		}
	}
	if (!path)
		gt_usage_error("no trace given");
	if (top < 0)
		top = mode == MODE_HTML ? 50 : 10;

	/* Read first: a bad replay file fails before the trace's long read. */
	struct gt_replay_input replay = {0};
	if (replay_path)
		gt_replay_input_read(replay_path, &replay);
	struct gt_symbols *syms = gt_symbols_new();
	if (!syms)
		gt_die("out of memory (symbolizer)");
	struct gt_symbolizer *sym = gt_symbolizer_new(syms);
	struct gt_dump dump = {stdout, sym};
	struct gt_model *m = gt_model_new();
	/*
	 * Text and JSON summarize each image as it is retired, keeping the
	 * sites they print: memory follows the processes running at a time.
	 * --html and --folded draw from every stack, so they keep the model whole.
	 */
	struct gt_summary s;
	int streaming = mode == MODE_JSON || mode == MODE_TEXT;
	if (streaming) {
		gt_summary_init(&s, path, sym, pid, (size_t)top, replay_path ? &replay : NULL);
		gt_model_on_retire(m, summary_add, &s);
	}
	struct gt_reader *r = gt_reader_open(path);
	struct gt_progress progress;
	struct gt_block b;

	gt_progress_init(&progress);
	while (gt_reader_next(r, &b)) {
		if (mode == MODE_DUMP)
			gt_dump_block(&dump, m, &b);
		else
			gt_model_feed(m, &b);
		gt_progress_update(&progress, gt_reader_pos(r), gt_reader_size(r),
				   gt_model_events(m));
	}
	gt_progress_done();
	gt_model_finish(m, gt_reader_torn(r));

	if (mode != MODE_DUMP) {
		if (streaming)
			gt_summary_finish(&s, m);
		else
			gt_summary_build(&s, m, path, sym, pid, replay_path ? &replay : NULL);
		if (pid >= 0 && !s.n)
			gt_die("no process with pid %ld in '%s'", pid, path);
		if (mode == MODE_JSON)
			gt_report_json(stdout, &s, (size_t)top);
		else if (mode == MODE_FOLDED)
			gt_report_folded(stdout, &s, by_bytes);
		else if (mode == MODE_HTML)
			write_html(html, &s, (size_t)top);
		else
			gt_report_text(stdout, &s, (size_t)top);
		gt_summary_release(&s);
	}
	gt_reader_close(r);
	gt_model_free(m);
	gt_symbolizer_free(sym);
	gt_symbols_free(syms);
	gt_replay_input_release(&replay);
	if (fflush(stdout) || ferror(stdout))
		gt_die("cannot write the report: %s", strerror(errno));
	return 0;
}
