/*
 * gittrace-report: reads a gittrace trace and prints the report (text by
 * default, --json, --folded), writes it as a page (--html) or prints every
 * record (--dump). Option parsing and the read loop live here; everything
 * else is in the files it calls.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "die.h"
#include "dump.h"
#include "load.h"
#include "model.h"
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
	       "  or:  gittrace-report --diff [--json] [--fail-if-worse=PCT] BASE NEW\n"
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
	       "  --processes=N       list and detail the N heaviest processes in the text\n"
	       "                        report, list their sites in --html (default 20;\n"
	       "                        0 = all)\n"
	       "  --pid=PID           report only the process(es) with this pid\n"
	       "  --replay=FILE       add the predictions of `gittrace replay --json` (FILE,\n"
	       "                        of the same trace) to the verdict's evidence\n"
	       "  --look-up-config    ask git (git config) where the pack window settings of\n"
	       "                        the processes come from, from the directories they\n"
	       "                        ran in, and name those files in the advice; for a\n"
	       "                        report right after the run (gittrace passes it)\n"
	       "  --trace2=FILE       attribute each process's calls to git's trace2 regions\n"
	       "                        from FILE, or the files in a directory\n"
	       "                        (GIT_TRACE2_EVENT; gittrace --phases)\n"
	       "  --diff              compare two traces, process by process (matched by\n"
	       "                        argv, in order of appearance) and site by site\n"
	       "  --fail-if-worse=PCT with --diff: exit 3 if allocations, temporary\n"
	       "                        allocations, allocator time share or pack maps of\n"
	       "                        a process grew by more than PCT percent\n"
	       "      --help          display this help and exit\n"
	       "      --version       output version information and exit\n"
	       "\n"
	       "Exit status: 0 success, 1 bad input, 2 usage error, 3 --fail-if-worse found a\n"
	       "process worse. A trace cut short is reported with a warning and\n"
	       "\"complete\": false, not as an error; so is a damaged trace2 file.\n");
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

/* Adds each process's stacks to the flame graph as the trace is read. */
static void add_flame(void *flame, const struct gt_proc *p)
{
	gt_flame_add(flame, p);
}

/* Writes each process's folded stacks as the trace is read. */
static void add_folded(void *folded, const struct gt_proc *p)
{
	gt_folded_add(folded, p);
}

static void write_html(const char *file, const struct gt_summary *s, const struct gt_flame *flame,
		       size_t top, size_t processes)
{
	FILE *out = fopen(file, "we");
	if (!out)
		gt_die("cannot open '%s': %s", file, strerror(errno));
	__fsetlocking(out, FSETLOCKING_BYCALLER); /* see main() */
	gt_report_html(out, s, flame, top, processes);
	if (fflush(out) || ferror(out)) {
		int e = errno;
		fclose(out);
		gt_die("cannot write '%s': %s", file, strerror(e));
	}
	if (fclose(out))
		gt_die("cannot write '%s': %s", file, strerror(errno));
}

/* --diff BASE NEW: both traces summarized with all their sites, then compared. */
static int diff(const char *base, const char *new, struct gt_symbolizer *sym, long pid, int json,
		double fail_pct, size_t top)
{
	struct gt_loaded a, b;
	struct gt_load_options o = {.pid = pid};
	gt_load(&a, base, sym, &o);
	gt_load(&b, new, sym, &o);
	struct gt_diff d;
	gt_diff_build(&d, &a.s, &b.s);
	if (json)
		gt_report_diff_json(stdout, &d, top);
	else
		gt_report_diff_text(stdout, &d, top);
	int worse = fail_pct >= 0 && gt_diff_worse(&d, fail_pct, stderr);
	gt_diff_release(&d);
	gt_load_release(&b);
	gt_load_release(&a);
	return worse ? GT_EXIT_WORSE : 0;
}

static void dump(const char *path, struct gt_symbolizer *sym)
{
	struct gt_dump d = {stdout, sym};
	gt_hold_warnings(); /* until the trace proves readable */
	struct gt_model *m = gt_model_new();
	struct gt_reader *r = gt_reader_open(path);
	struct gt_block b;
	while (gt_reader_next(r, &b))
		gt_dump_block(&d, m, &b);
	gt_model_finish(m, gt_reader_torn(r));
	gt_reader_close(r);
	gt_model_free(m);
	gt_release_warnings();
}

int main(int argc, char **argv)
{
	enum mode mode = MODE_TEXT;
	int by_bytes = 0, is_diff = 0;
	long top = -1, pid = -1; /* top < 0: the mode's default */
	long processes = -1;	 /* < 0: not given */
	double fail_pct = -1;
	const char *paths[2] = {NULL, NULL}, *html = NULL, *trace2 = NULL, *replay_path = NULL, *v;
	int look_up_config = 0;
	size_t npaths = 0;
	int options_done = 0;
	/*
	 * Only this thread writes the report. Once the decoding thread has
	 * started, glibc locks the stream in every fputc: a quarter of the
	 * time of a large --json went there.
	 */
	__fsetlocking(stdout, FSETLOCKING_BYCALLER);

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (options_done || a[0] != '-' || !strcmp(a, "-")) {
			if (npaths == 2)
				gt_usage_error("too many traces given: '%s'", a);
			paths[npaths++] = a;
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
		} else if (!strcmp(a, "--diff")) {
			is_diff = 1;
		} else if (!strcmp(a, "--folded") || !strcmp(a, "--folded=allocations")) {
			mode = MODE_FOLDED;
			by_bytes = 0;
		} else if (!strcmp(a, "--folded=bytes")) {
			mode = MODE_FOLDED;
			by_bytes = 1;
		} else if ((v = option_value("--html", argc, argv, &i))) {
			mode = MODE_HTML;
			html = v;
		} else if ((v = option_value("--trace2", argc, argv, &i))) {
			trace2 = v;
		} else if ((v = option_value("--replay", argc, argv, &i))) {
			replay_path = v;
		} else if (!strcmp(a, "--look-up-config")) {
			look_up_config = 1;
		} else if ((v = option_value("--fail-if-worse", argc, argv, &i))) {
			fail_pct = (double)parse_number("--fail-if-worse", v, INT_MAX);
		} else if ((v = option_value("--top", argc, argv, &i))) {
			top = parse_number("--top", v, INT_MAX);
		} else if ((v = option_value("--processes", argc, argv, &i))) {
			processes = parse_number("--processes", v, LONG_MAX);
		} else if ((v = option_value("--pid", argc, argv, &i))) {
			pid = parse_number("--pid", v, LONG_MAX);
		} else {
			gt_usage_error("unrecognized option '%s'", a);
		}
	}
	if (is_diff && npaths != 2)
		gt_usage_error("--diff needs two traces: BASE NEW");
	if (is_diff && mode != MODE_TEXT && mode != MODE_JSON)
		gt_usage_error("--diff prints text or --json only");
	if (trace2 && (is_diff || mode == MODE_DUMP || mode == MODE_FOLDED))
		gt_usage_error("--trace2 goes with the text, --json and --html reports");
	if (replay_path && (is_diff || mode == MODE_DUMP || mode == MODE_FOLDED))
		gt_usage_error("--replay goes with the text, --json and --html reports");
	if (look_up_config && (is_diff || mode == MODE_DUMP || mode == MODE_FOLDED))
		gt_usage_error("--look-up-config goes with the text, --json and --html reports");
	if (processes >= 0 && (is_diff || (mode != MODE_TEXT && mode != MODE_HTML)))
		gt_usage_error("--processes goes with the text and --html reports");
	if (processes < 0)
		processes = 20;
	if (!is_diff && fail_pct >= 0)
		gt_usage_error("--fail-if-worse goes with --diff");
	if (!npaths)
		gt_usage_error("no trace given");
	if (!is_diff && npaths > 1)
		gt_usage_error("more than one trace given: '%s'", paths[1]);
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
	int status = 0;
	if (is_diff) {
		status = diff(paths[0], paths[1], sym, pid, mode == MODE_JSON, fail_pct,
			      (size_t)top);
	} else if (mode == MODE_DUMP) {
		dump(paths[0], sym);
	} else {
		struct gt_phases ph;
		if (trace2)
			gt_phases_init(&ph, trace2);
		struct gt_load_options o = {
			.pid = pid,
			.keep_sites = (size_t)top,
			.timelines = mode == MODE_HTML,
			.phases = trace2 ? &ph : NULL,
			.replay = replay_path ? &replay : NULL,
			.look_up_config = look_up_config,
		};
		struct gt_flame *flame = NULL;
		struct gt_folded *folded = NULL;
		if (mode == MODE_HTML) {
			flame = gt_flame_new();
			o.stacks_hook = add_flame;
			o.stacks_ctx = flame;
		} else if (mode == MODE_FOLDED) {
			folded = gt_folded_new(by_bytes);
			o.stacks_hook = add_folded;
			o.stacks_ctx = folded;
		}
		struct gt_loaded l;
		gt_load(&l, paths[0], sym, &o);
		if (mode == MODE_JSON)
			gt_report_json(stdout, &l.s, (size_t)top);
		else if (mode == MODE_FOLDED)
			gt_folded_print(folded, stdout);
		else if (mode == MODE_HTML)
			write_html(html, &l.s, flame, (size_t)top, (size_t)processes);
		else
			gt_report_text(stdout, &l.s, (size_t)top, (size_t)processes);
		gt_load_release(&l);
		gt_flame_free(flame);
		gt_folded_free(folded);
		if (trace2)
			gt_phases_release(&ph);
	}
	gt_symbolizer_free(sym);
	gt_symbols_free(syms);
	gt_replay_input_release(&replay);
	if (fflush(stdout) || ferror(stdout))
		gt_die("cannot write the report: %s", strerror(errno));
	return status;
}
