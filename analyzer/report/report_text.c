/*
 * The human report: fits 80 columns and leads with the verdict and the one
 * thing to do, then the process tree, per-process sections and top sites.
 */
#include "report.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "callers.h"
#include "command_label.h"
#include "mapkind.h"
#include "report_phases.h"
#include "site_labels.h"
#include "units.h"

#define WIDTH 80

/*
 * Appends to buf (size bytes, *used of them filled) as snprintf would, and
 * never past its end: a list that does not fit is cut, still a string.
 */
static void append(char *buf, size_t size, size_t *used, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void append(char *buf, size_t size, size_t *used, const char *fmt, ...)
{
	if (*used + 1 >= size)
		return;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf + *used, size - *used, fmt, ap);
	va_end(ap);
	if (n > 0)
		*used = *used + (size_t)n < size ? *used + (size_t)n : size - 1;
}

/* Prints text word-wrapped to WIDTH, first line after `first`, later lines
 * indented by `indent` spaces. */
static void wrap(FILE *out, const char *first, int indent, const char *text)
{
	int col = fprintf(out, "%s", first);
	const char *p = text;
	while (*p) {
		const char *sp = strchr(p, ' ');
		int len = sp ? (int)(sp - p) : (int)strlen(p);
		if (col > indent && col + 1 + len > WIDTH) {
			col = fprintf(out, "\n%*s", indent, "") - 1;
		} else if (p != text) {
			fputc(' ', out);
			col++;
		}
		fwrite(p, 1, (size_t)len, out);
		col += len;
		p += len;
		while (*p == ' ')
			p++;
	}
	fputc('\n', out);
}

static const char *bytes(char *buf, uint64_t n)
{
	gt_format_bytes(buf, 32, n);
	return buf;
}

static void verdict_block(FILE *out, const struct gt_verdict *v, const char *title)
{
	char first[64];
	snprintf(first, sizeof(first), "%s: ", title);
	wrap(out, first, 2, v->headline);
	for (size_t i = 0; i < v->nsuggestions; i++)
		wrap(out, "  do: ", 6, v->suggestions[i]);
	for (size_t i = 0; i < v->nevidence; i++)
		wrap(out, "  - ", 4, v->evidence[i]);
}

/* A UTF-8 byte after a sequence's first: no column of its own ("←" is 3 bytes, 1 column). */
static int continues(char c)
{
	return ((unsigned char)c & 0xc0) == 0x80;
}

/* The bytes of text's first columns. */
static size_t columns_len(const char *text, size_t columns)
{
	size_t len = 0, seen = 0;
	for (; text[len]; len++) {
		if (continues(text[len]))
			continue;
		if (seen++ == columns)
			break;
	}
	return len;
}

/*
 * Prints text cut to the columns left on a line (and then end, "\n" or
 * not), never splitting a UTF-8 sequence; a cut ends in "…", so that "git
 * log -n 5" cut from "-n 50" does not read as another command.
 */
static void cut_text(FILE *out, const char *text, int columns, const char *end)
{
	size_t max = columns > 1 ? (size_t)columns : 1;
	if (text[columns_len(text, max)])
		fprintf(out, "%.*s…%s", (int)columns_len(text, max - 1), text, end);
	else
		fprintf(out, "%s%s", text, end);
}

static void cut_line(FILE *out, const char *text, int columns)
{
	cut_text(out, text, columns, "\n");
}

/* A process's mark in the table: * incomplete, ! killed by a signal. */
static const char *tree_mark(const struct gt_proc *p)
{
	return !gt_image_complete(p->img) ? "*" : *p->killed_by ? "!" : " ";
}

/* The footnote of the ! mark: the signals that killed processes, each once. */
static void killed_note(FILE *out, const struct gt_summary *s)
{
	char names[96] = "";
	size_t len = 0;
	for (size_t i = 0; i < s->n; i++) {
		const char *name = s->procs[i].killed_by;
		if (!*name || strstr(names, name))
			continue;
		int n = snprintf(names + len, sizeof(names) - len, "%s%s", len ? ", " : "", name);
		if (n < 0 || (size_t)n >= sizeof(names) - len)
			break;
		len += (size_t)n;
	}
	if (len)
		fprintf(out, "  ! killed by %s; its calls up to then are all in the trace\n",
			names);
}

/* The table of the first `shown` processes, and a line for the rest. */
static void tree(FILE *out, const struct gt_summary *s, size_t shown)
{
	char cmd[256];
	size_t stars = 0; /* incomplete processes, marked * */
	fprintf(out, "\nProcesses (heaviest first)\n");
	fprintf(out, "  %7s %7s %5s %8s %8s %10s  %s\n", "pid", "ppid", "from", "cpu s", "wall s",
		"calls", "command");
	for (size_t i = 0; i < shown; i++) {
		const struct gt_proc *p = &s->procs[i];
		const struct gt_image *img = p->img;
		const char *origin = p->origin;
		gt_command_label(img, cmd, sizeof(cmd));
		stars += !gt_image_complete(img);
		int n = fprintf(
			out, "  %7" PRIu32 " %7" PRIu64 " %5s %8.3f %8.3f %10" PRIu64 "%s  ",
			img->pid, img->ppid, origin, p->cpu, p->wall, img->events, tree_mark(p));
		cut_line(out, cmd, WIDTH - n > 10 ? WIDTH - n : 10);
	}
	if (shown < s->n) {
		uint64_t calls = 0;
		double cpu = 0;
		size_t hidden_stars = 0;
		for (size_t i = shown; i < s->n; i++) {
			calls += s->procs[i].img->events;
			cpu += s->procs[i].cpu;
			hidden_stars += !gt_image_complete(s->procs[i].img);
		}
		char incomplete[48] = "";
		if (hidden_stars)
			snprintf(incomplete, sizeof(incomplete), ", %zu incomplete*", hidden_stars);
		char line[160];
		snprintf(line, sizeof(line),
			 "%zu more process%s: %" PRIu64
			 " calls, %s CPU%s (--processes=0 lists all)",
			 s->n - shown, s->n - shown == 1 ? "" : "es", calls,
			 gt_format_seconds(cpu).text, incomplete);
		wrap(out, "  … ", 4, line);
		stars += hidden_stars;
	}
	if (stars)
		fprintf(out, "  * incomplete: killed, still running, or the trace was cut short\n");
	killed_note(out, s);
}

/* Prints text right-aligned in width columns ("µs" is 2). */
static void right(FILE *out, const char *text, int width)
{
	int columns = 0;
	for (const char *c = text; *c; c++)
		columns += !continues(*c);
	fprintf(out, "%*s%s", width > columns ? width - columns : 0, "", text);
}

/*
 * The calls by function, as `strace -c` counts system calls: how many, the
 * time inside them (sampled calls scaled up) and per call, and how many
 * failed (model.h).
 */
static void calls_table(FILE *out, const struct gt_image *img)
{
	uint64_t any = 0;
	for (int f = 0; f < GT_FN_COUNT; f++)
		any |= img->calls[f];
	if (!any) {
		fprintf(out, "  calls: none\n");
		return;
	}
	fprintf(out, "  calls: %-14s %10s %12s %10s %8s\n", "function", "calls", "time inside",
		"per call", "failed");
	for (int f = 0; f < GT_FN_COUNT; f++) {
		uint64_t n = img->calls[f];
		if (!n)
			continue;
		double seconds = (double)img->fn_ns[f] / 1e9;
		fprintf(out, "         %-14s %10" PRIu64 " ", gt_fn_names[f], n);
		right(out, gt_format_seconds(seconds).text, 12);
		fputc(' ', out);
		right(out, gt_format_seconds(seconds / (double)n).text, 10);
		if (img->failed[f])
			fprintf(out, " %8" PRIu64, img->failed[f]);
		fputc('\n', out);
	}
}

static void histograms(FILE *out, const struct gt_heap *h)
{
	static const char *const life[GT_LIFETIME_BUCKETS] = {"<1us",  "<10us",	 "<100us", "<1ms",
							      "<10ms", "<100ms", "<1s",	   ">=1s"};
	char buf[1024], b[32];
	size_t used = 0;
	for (int i = 0; i < GT_LIFETIME_BUCKETS; i++)
		if (h->lifetime[i])
			append(buf, sizeof(buf), &used, "%s%s %" PRIu64, used ? ", " : "", life[i],
			       h->lifetime[i]);
	if (used)
		wrap(out, "  lifetimes of freed blocks: ", 4, buf);
	used = 0;
	for (int i = 0; i < GT_SIZE_BUCKETS; i++)
		if (h->sizes[i])
			append(buf, sizeof(buf), &used, "%s<=%s %" PRIu64, used ? ", " : "",
			       bytes(b, i ? (uint64_t)1 << (i < 64 ? i : 63) : 1), h->sizes[i]);
	if (used)
		wrap(out, "  sizes: ", 4, buf);
}

static void maps_table(FILE *out, const struct gt_proc *p)
{
	const struct gt_maps *m = &p->img->maps;
	char b[32];
	int any = 0;
	for (int k = 0; k < GT_MAP_KIND_COUNT; k++)
		any |= m->kind[k].mmaps || m->kind[k].munmaps || m->kind[k].mremaps;
	if (!any)
		return;
	fprintf(out, "  maps: %-14s %10s %10s %8s %12s\n", "kind", "mmaps", "munmaps", "mremaps",
		"bytes");
	for (int k = 0; k < GT_MAP_KIND_COUNT; k++) {
		const struct gt_kind_stats *ks = &m->kind[k];
		if (ks->mmaps || ks->munmaps || ks->mremaps)
			fprintf(out,
				"        %-14s %10" PRIu64 " %10" PRIu64 " %8" PRIu64 " %12s\n",
				gt_map_kind_names[k], ks->mmaps, ks->munmaps, ks->mremaps,
				bytes(b, ks->bytes));
	}
	/* Maps of a region mapped before, of any file (the index, say); of packs: thrash. */
	uint64_t pack_again = m->kind[GT_MAP_PACK].mmaps > m->distinct_pack_regions
				      ? m->kind[GT_MAP_PACK].mmaps - m->distinct_pack_regions
				      : 0;
	fprintf(out,
		"  peak mapped %s; %" PRIu64 " maps of regions mapped before (%" PRIu64
		" of packs)",
		bytes(b, m->peak_mapped_bytes), m->remapped_regions, pack_again);
	if (p->window)
		fprintf(out, "; window %s", bytes(b, p->window));
	if (m->kind[GT_MAP_PACK].mmaps)
		fprintf(out, "; thrash %.1f", p->thrash);
	fputc('\n', out);
	if (!m->kind[GT_MAP_PACK].mmaps)
		return;
	char advice[512];
	gt_window_advice_describe(advice, sizeof(advice), &p->window_advice);
	wrap(out, "  window advice: ", 4, advice);
	if (p->window_advice.raise)
		wrap(out, "    model: ", 4, gt_window_advice_assumptions);
}

typedef int cmp_fn(const void *, const void *);

/* " (file:line)" of f, file without its directories; "" without line info. */
static void location(char *buf, size_t size, const struct gt_frame *f)
{
	buf[0] = '\0';
	if (f && f->file) {
		const char *slash = strrchr(f->file, '/');
		snprintf(buf, size, " (%s:%d)", slash ? slash + 1 : f->file, f->line);
	}
}

/*
 * A row of a table of sites: its counts (site_bytes: allocated, or live
 * at the peak) and its label (site_labels.h), each frame with its
 * (file:line) where the label locates it: "deflateInit2_ ← do_compress
 * (pack-objects.c:319)", "git+0x28961c ← … ← git+0x272df7". When the label
 * does not fit, its function on the row and the rest beneath, a frame a
 * line.
 */
static void site_line(FILE *out, const struct gt_site *st, uint64_t site_bytes,
		      const struct gt_site_label *l)
{
	char b[32], loc[64], line[640], part[GT_SITE_LABEL_MAX][224];
	int n = fprintf(out, "    %9" PRIu64 " %10s %8" PRIu64 "  ", st->allocations,
			bytes(b, site_bytes), st->temporary);
	if (!l->n) {
		cut_line(out, st->function, WIDTH - n);
		return;
	}
	/* "name", then "← name" or "← … ← name" past frames skipped, each with
	 * its place if located; "←" and "…" are 3 bytes and one column each. */
	size_t columns = 0;
	for (size_t i = 0; i < l->n; i++) {
		const struct gt_frame *f = &st->frames[l->at[i]];
		int skip = gt_site_label_skips(st, l, i);
		loc[0] = '\0';
		if (gt_site_label_located(l, i))
			location(loc, sizeof(loc), f);
		snprintf(part[i], sizeof(part[i]), "%s%s%s%s", i ? "← " : "", skip ? "… ← " : "",
			 f->function, loc);
		columns += (i ? 1 : 0) + strlen(part[i]) - (i ? 2 : 0) - (skip ? 4 : 0);
	}
	if (columns <= (size_t)(WIDTH - n)) {
		size_t len = 0;
		for (size_t i = 0; i < l->n && len < sizeof(line); i++)
			len += (size_t)snprintf(line + len, sizeof(line) - len, "%s%s",
						i ? " " : "", part[i]);
		cut_line(out, line, WIDTH - n);
		return;
	}
	cut_line(out, part[0], WIDTH - n);
	for (size_t i = 1; i < l->n; i++) {
		snprintf(line, sizeof(line), "%*s%s", n + 2, "", part[i]);
		cut_line(out, line, WIDTH);
	}
}

/*
 * The first top sites (all if 0) in the order of cmp (as summarized if
 * NULL); with at_peak, those that held bytes at the heap's peak, with
 * those bytes in the bytes column.
 */
static void sites(FILE *out, const struct gt_proc *p, size_t top, const char *title, cmp_fn *cmp,
		  int at_peak)
{
	if (!p->nsites)
		return;
	const struct gt_site **v = malloc(p->nsites * sizeof(*v));
	struct gt_site_label *labels = malloc(p->nsites * sizeof(*labels));
	if (!v || !labels) {
		free(v);
		free(labels);
		return;
	}
	memcpy(v, p->sites, p->nsites * sizeof(*v));
	if (cmp)
		qsort(v, p->nsites, sizeof(*v), cmp);
	size_t n = top && top < p->nsites ? top : p->nsites;
	while (at_peak && n && !v[n - 1]->at_peak_bytes)
		n--;
	if (!n) {
		free(labels);
		free(v);
		return;
	}
	gt_site_labels(v, n, labels);
	fprintf(out, "  top sites by %s:\n    %9s %10s %8s  %s\n", title, "allocs",
		at_peak ? "at peak" : "bytes", "temp",
		"function [← program's caller] [← … ← where it parts]");
	for (size_t i = 0; i < n; i++)
		site_line(out, v[i], at_peak ? v[i]->at_peak_bytes : v[i]->bytes, &labels[i]);
	free(labels);
	free(v);
}

/* Stacks listed beneath a row of the table by caller in the program. */
#define GT_STACKS_BENEATH 3

/* A stack beneath a row: its counts, then its functions from the site outwards. */
static void stack_line(FILE *out, const struct gt_site *st)
{
	char b[32], line[1024];
	int n = snprintf(line, sizeof(line), "      %9" PRIu64 " %10s %8" PRIu64 "  ",
			 st->allocations, bytes(b, st->bytes), st->temporary);
	for (size_t i = 0; i < st->nframes && n > 0 && (size_t)n < sizeof(line); i++)
		n += snprintf(line + n, sizeof(line) - (size_t)n, "%s%s", i ? " ← " : "",
			      st->frames[i].function);
	cut_line(out, line, WIDTH);
}

/*
 * The sites grouped by function and the program's caller beside it, one
 * row however many stacks reach it, the heaviest stacks beneath. Only when
 * a listed row has more than one stack: else it is the sites table again.
 */
static void callers(FILE *out, const struct gt_proc *p, size_t top)
{
	size_t n = top && top < p->ncallers ? top : p->ncallers, many = 0;
	size_t beneath = top && top < GT_STACKS_BENEATH ? top : GT_STACKS_BENEATH;
	for (size_t i = 0; i < n; i++)
		many += p->callers[i].stacks > 1;
	if (!many)
		return;
	fprintf(out, "  by caller in the program (the heaviest %zu stacks beneath a row):\n",
		beneath);
	fprintf(out, "    %9s %10s %8s %6s  %s\n", "allocs", "bytes", "temp", "stacks",
		"function [← program's caller]");
	for (size_t i = 0; i < n; i++) {
		const struct gt_caller_row *r = &p->callers[i];
		const char *caller = gt_caller_row_caller(r);
		char b[32], name[640];
		int w = fprintf(out, "    %9" PRIu64 " %10s %8" PRIu64 " %6zu  ", r->allocations,
				bytes(b, r->bytes), r->temporary, r->stacks);
		snprintf(name, sizeof(name), "%s%s%s", gt_caller_row_function(r),
			 caller ? " ← " : "", caller ? caller : "");
		cut_line(out, name, WIDTH - w);
		for (size_t k = 0; r->stacks > 1 && k < r->nsites && k < beneath; k++)
			stack_line(out, r->sites[k]);
	}
}

static void process(FILE *out, const struct gt_summary *s, const struct gt_proc *p, size_t top)
{
	const struct gt_image *img = p->img;
	const struct gt_heap *h = &img->heap;
	char cmd[256], line[512], b[32], b2[32], b3[32];
	int n = fprintf(out, "\n== pid %" PRIu32 ": ", img->pid) - 1;
	cut_text(out, gt_command_label(img, cmd, sizeof(cmd)), WIDTH - 3 - n, " ==\n");
	/* The label leaves git's global options out: the whole argv beneath. */
	if (gt_command_label_shortens(img))
		wrap(out, "  argv: ", 8, gt_command_line(img, line, sizeof(line)));
	verdict_block(out, &p->verdict, "  verdict");
	calls_table(out, img);
	/* Per second of the verdict's basis, as its evidence counts them. */
	snprintf(line, sizeof(line),
		 "%" PRIu64
		 " allocations (%.0f/s), %s allocated, peak %s at %.3f s; temporary %" PRIu64
		 " (%.1f%%), %s %" PRIu64 " (%s), untracked frees %" PRIu64,
		 h->allocations, p->basis > 0 ? (double)h->allocations / p->basis : 0,
		 bytes(b, h->allocated_bytes), bytes(b2, h->peak_bytes), p->peak_seconds,
		 h->temporary, h->allocations ? 100.0 * h->temporary / h->allocations : 0,
		 img->ended ? "leaked" : "live when the trace ends", h->leaked_allocations,
		 bytes(b3, h->leaked_bytes), h->untracked_frees);
	wrap(out, "  heap: ", 8, line);
	histograms(out, h);
	maps_table(out, p);
	fprintf(out, "  time: allocator %s (%.1f%%), maps %s (%.1f%%) of %s %s\n",
		gt_format_seconds(p->allocator_s).text, 100 * p->verdict.allocator_share,
		gt_format_seconds(p->mmap_s).text, 100 * p->verdict.mmap_share,
		gt_format_seconds(p->basis).text,
		img->ended ? "CPU, the tracer's left out" : "wall (no CPU time)");
	if (img->dropped_calls)
		fprintf(out, "  warning: the tracer dropped %" PRIu64 " calls: counts are low\n",
			img->dropped_calls);
	gt_report_phases_text(out, s->phases, img);
	sites(out, p, top, "calls", NULL, 0);
	sites(out, p, top, "bytes", gt_site_by_bytes, 0);
	sites(out, p, top, "temporary", gt_site_by_temporary, 0);
	char peak[96];
	snprintf(peak, sizeof(peak), "bytes live at the heap's peak (%s at %.3f s)",
		 bytes(b, h->peak_bytes), p->peak_seconds);
	sites(out, p, top, peak, gt_site_by_peak, 1);
	callers(out, p, top);
}

void gt_report_text(FILE *out, const struct gt_summary *s, size_t top, size_t processes)
{
	size_t shown = processes && processes < s->n ? processes : s->n;
	fprintf(out, "gittrace-report: %zu process%s, %" PRIu64 " events%s\n\n", s->n,
		s->n == 1 ? "" : "es", gt_model_events(s->m),
		gt_model_complete(s->m) ? "" : " (incomplete trace)");
	verdict_block(out, &s->verdict, "VERDICT");
	if (s->nstripped) {
		/* A run of many programs can have hundreds: the JSON lists all. */
		char buf[1024];
		size_t used = 0, i = 0;
		/* The first path always (append cuts it if it must), then what fits. */
		for (; i < s->nstripped && (!i || used + strlen(s->stripped[i]) + 40 < sizeof(buf));
		     i++)
			append(buf, sizeof(buf), &used, "%s%s", i ? ", " : "", s->stripped[i]);
		if (i < s->nstripped)
			append(buf, sizeof(buf), &used, " and %zu more", s->nstripped - i);
		char note[1600];
		snprintf(note, sizeof(note), "%s stripped: %s", buf, gt_stripped_advice);
		wrap(out, "note: ", 6, note);
	}
	if (s->untraced_execs) {
		char note[512];
		snprintf(note, sizeof(note),
			 "%zu program%s exec'd by traced processes ran untraced (a setuid or "
			 "static program, one with a sanitizer's runtime, or one whose tracer "
			 "could not start: see its warning): %s calls are not in the trace",
			 s->untraced_execs, s->untraced_execs == 1 ? "" : "s",
			 s->untraced_execs == 1 ? "its" : "their");
		wrap(out, "note: ", 6, note);
	}
	tree(out, s, shown);
	/*
	 * A process that made no hooked call (a child forked only to exec,
	 * most often) has nothing a section would say beyond its row in the
	 * table: git gc would otherwise print a page of zeros for each.
	 */
	size_t quiet = 0;
	for (size_t i = 0; i < shown; i++) {
		if (s->procs[i].img->events)
			process(out, s, &s->procs[i], top);
		else
			quiet++;
	}
	if (quiet)
		fprintf(out,
			"\n%zu process%s made no calls: %s row%s in the table above %s all there "
			"is\n",
			quiet, quiet == 1 ? "" : "es", quiet == 1 ? "its" : "their",
			quiet == 1 ? "" : "s", quiet == 1 ? "is" : "are");
	gt_report_phases_text_note(out, s->phases);
}
