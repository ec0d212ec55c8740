/*
 * Verdict computation. See verdict.h; thresholds and wording are
 * documented in docs/report.md.
 */
#define _GNU_SOURCE /* strcasestr */
#include "verdict.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config_origins.h"
#include "die.h"
#include "shell_quote.h"
#include "units.h"

const char *const gt_verdict_class_names[3] = {"neither", "allocator-bound", "window-bound"};

/* git's defaults on 64-bit (packfile.c / environment.c). */
#define DEFAULT_WINDOW (1ull << 30)

static char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static char *fmt(const char *f, ...)
{
	va_list ap;
	va_start(ap, f);
	int n = vsnprintf(NULL, 0, f, ap);
	va_end(ap);
	char *s = gt_xmalloc((size_t)n + 1);
	va_start(ap, f);
	vsnprintf(s, (size_t)n + 1, f, ap);
	va_end(ap);
	return s;
}

static void push(char ***v, size_t *n, char *s)
{
	*v = gt_xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = s;
}

#define EVIDENCE(...) push(&v->evidence, &v->nevidence, fmt(__VA_ARGS__))
#define SUGGEST(...)  push(&v->suggestions, &v->nsuggestions, fmt(__VA_ARGS__))

/* Environment that makes the allocator look slower than it need be. */

/* A number setting that is on: a value other than 0. */
static int on(const char *value)
{
	return *value && strtol(value, NULL, 10) != 0;
}

/* GLIBC_TUNABLES=... sets the tunable name ("glibc.malloc.check=") on. */
static int tunable_on(const char *tunables, const char *name)
{
	const char *at = strstr(tunables, name);
	return at && on(at + strlen(name));
}

/*
 * Whether e asks glibc's malloc to check every call: glibc 2.34 and later
 * (2021) check only with libc_malloc_debug.so preloaded, as git's tests
 * do; without it the setting does nothing (the verdict sweep measured no
 * difference with MALLOC_CHECK_=3 on glibc 2.36).
 */
static int glibc_check_asked(const char *e)
{
	if (!strncmp(e, "MALLOC_CHECK_=", 14))
		return on(e + 14);
	return !strncmp(e, "GLIBC_TUNABLES=", 15) && tunable_on(e, "glibc.malloc.check=");
}

/* LD_PRELOAD=... loads glibc's debugging allocator, which does the checks. */
static int check_library(const char *e)
{
	return !strncmp(e, "LD_PRELOAD=", 11) && strstr(e, "libc_malloc_debug");
}

/*
 * Whether e turns on debugging work in every call of glibc's malloc:
 * filling blocks (perturb), or checking them where the library that checks
 * is preloaded (checking). Other tunables (arena_max, tcache_count) change
 * how it allocates, which its calls' durations show.
 */
static int glibc_debugging(const char *e, int checking)
{
	if (!strncmp(e, "MALLOC_PERTURB_=", 16))
		return on(e + 16);
	if (!strncmp(e, "GLIBC_TUNABLES=", 15) && tunable_on(e, "glibc.malloc.perturb="))
		return 1;
	return checking && glibc_check_asked(e);
}

/* LD_PRELOAD=... names another allocator: "malloc" in a name, but not glibc's debugging one. */
static int other_allocator(const char *e)
{
	if (strncmp(e, "LD_PRELOAD=", 11))
		return 0;
	for (const char *at = strstr(e, "malloc"); at; at = strstr(at + 1, "malloc"))
		if (strncmp(at, "malloc_debug", 12))
			return 1;
	return 0;
}

/* Another allocator than glibc's serves the calls. */
static int any_other_allocator(const struct gt_verdict_input *in)
{
	for (size_t i = 0; i < in->envc; i++)
		if (other_allocator(in->env[i]))
			return 1;
	return 0;
}

/* The library that does glibc's checks is preloaded. */
static int checking(const struct gt_verdict_input *in)
{
	for (size_t i = 0; i < in->envc; i++)
		if (check_library(in->env[i]))
			return 1;
	return 0;
}

/* glibc serves the calls, and does debugging work in each. */
static int any_glibc_debugging(const struct gt_verdict_input *in)
{
	int debugging = 0, checks = checking(in);
	for (size_t i = 0; i < in->envc; i++)
		debugging |= glibc_debugging(in->env[i], checks);
	return debugging && !any_other_allocator(in);
}

static void inflating_env(struct gt_verdict *v, const struct gt_verdict_input *in)
{
	int debugging = any_glibc_debugging(in), checks = checking(in);
	for (size_t i = 0; i < in->envc; i++) {
		const char *e = in->env[i];
		if (debugging && glibc_debugging(e, checks))
			EVIDENCE("%s is set: glibc does extra work in every call, which another "
				 "allocator skips; the allocator's prediction counts half of its "
				 "time inside beyond the slower calls",
				 e);
		else if (glibc_check_asked(e) && !checks && !any_other_allocator(in))
			EVIDENCE("%s is set, but glibc 2.34 and later check only with "
				 "libc_malloc_debug.so preloaded, which it was not: not counted",
				 e);
		else if (other_allocator(e))
			EVIDENCE("%s: another allocator is already preloaded", e);
	}
}

/* The window settings the command gave git itself; NULL if none. */
static const char *settings_given(const struct gt_verdict_input *in)
{
	return in->window_settings && *in->window_settings ? in->window_settings : NULL;
}

/*
 * Bounds lo and hi into a and b (size bytes each): in bytes where the two
 * would read alike rounded ("at least 1 MiB and below 1.0 MiB").
 */
static void format_bounds(char *a, char *b, size_t size, uint64_t lo, uint64_t hi)
{
	gt_format_bytes(a, size, lo);
	gt_format_bytes(b, size, hi);
	char *unit_a, *unit_b;
	if (strtod(a, &unit_a) == strtod(b, &unit_b) && !strcmp(unit_a, unit_b)) {
		snprintf(a, size, "%llu bytes", (unsigned long long)lo);
		snprintf(b, size, "%llu bytes", (unsigned long long)hi);
	}
}

/* A window key as git's documentation spells it (git config prints keys in lower case). */
static const char *window_key_name(const char *key)
{
	static const char *const names[] = {"core.packedGitLimit", "core.packedGitWindowSize"};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcasecmp(key, names[i]))
			return names[i];
	return key;
}

static void window_facts(struct gt_verdict *v, const struct gt_verdict_input *in)
{
	char a[32], b[32];
	if (in->pack_mmaps)
		EVIDENCE("%llu pack window map%s of %llu distinct region%s (thrash ratio %.1f)",
			 (unsigned long long)in->pack_mmaps, in->pack_mmaps == 1 ? "" : "s",
			 (unsigned long long)in->pack_regions, in->pack_regions == 1 ? "" : "s",
			 in->thrash);
	if (in->window) {
		gt_format_bytes(a, sizeof(a), in->window);
		EVIDENCE("pack window size in effect: %s (core.packedGitWindowSize; default "
			 "1 GiB on 64-bit)",
			 a);
	}
	const char *given = settings_given(in);
	if (in->evictions && given && strcasestr(given, "core.packedGitLimit=")) {
		/* git maps past its limit while no window can go: the bounds would be wrong. */
		EVIDENCE("%llu least-recently-used pack window unmaps: core.packedGitLimit was "
			 "lowered on the command line (%s; default 32 TiB on 64-bit)",
			 (unsigned long long)in->evictions, given);
	} else if (in->evictions) {
		format_bounds(a, b, sizeof(a), in->limit_at_least, in->limit_below);
		EVIDENCE("%llu least-recently-used pack window unmaps: core.packedGitLimit is "
			 "at least %s and below %s (default 32 TiB on 64-bit, so it was lowered)",
			 (unsigned long long)in->evictions, a, b);
	}
	const struct gt_config_origins *c = in->config;
	for (size_t i = 0; c && i < c->n; i++) {
		const struct gt_config_setting *s = &c->v[i];
		int file = !strncmp(s->origin, "file:", 5);
		EVIDENCE("%s=%s is set in %s (%s scope; git config --show-origin, asked after "
			 "the run)",
			 window_key_name(s->key), s->value,
			 file				       ? s->origin + 5
			 : !strcmp(s->origin, "command line:") ? "the environment"
							       : s->origin,
			 s->scope);
	}
}

/* The traced command, for suggestions to rerun it; a placeholder if unknown. */
static const char *command(const struct gt_verdict_input *in)
{
	return in->command && *in->command ? in->command : "COMMAND";
}

/* git as the command ran it, for advice: with its repository options. */
static const char *git(const struct gt_verdict_input *in)
{
	return in->git && *in->git ? in->git : "git";
}

/* x as a share of the basis, at most 1. */
static double share(double x, double basis)
{
	double r = basis > 0 ? x / basis : 0;
	return r < 1 ? r : 1;
}

/* Whether the run saw core.packedGitWindowSize below git's default. */
static int window_lowered(const struct gt_verdict_input *in)
{
	return in->window && in->window < DEFAULT_WINDOW;
}

/* Many small windows mapped at once: git's search of them is not in the trace (verdict.h). */
static int window_search_unseen(const struct gt_verdict_input *in)
{
	return window_lowered(in) && in->peak_pack_windows >= GT_WINDOW_SEARCH_MANY;
}

/*
 * How much of a kernel time reading the point estimate takes: none below
 * GT_KERNEL_TIME_RESOLVED_S (a count of ticks), all from twice that, and
 * in proportion between, so that a reading a tick either side of the line
 * moves the estimate by a tick's worth, not from the calls alone to all of
 * the reading (verdict.h).
 */
static double kernel_weight(double seconds)
{
	double w = (seconds - GT_KERNEL_TIME_RESOLVED_S) / GT_KERNEL_TIME_RESOLVED_S;
	return fmin(1, fmax(0, w));
}

/*
 * What git's default windows would save: nothing seen unless pack regions
 * were mapped again (only lowered limits unmap and remap them). See
 * verdict.h.
 */
static struct gt_prediction predict_windows(const struct gt_verdict_input *in, double basis)
{
	struct gt_prediction p = {0};
	p.applies = in->evictions || in->again_calls_seconds > 0 || window_lowered(in);
	if (!p.applies)
		return p;
	double calls = in->again_calls_seconds;
	if (in->has_window_cost) {
		/* The kernel time of those periods holds the calls' own (maps.h). */
		p.low = share(calls, basis);
		double system = in->again_system_seconds;
		p.gain = share(calls + kernel_weight(system) * fmax(0, system - calls), basis);
		p.high = share(calls > in->again_any_system_seconds ? calls
								    : in->again_any_system_seconds,
			       basis);
	} else {
		/* A trace before 1.2: no readings, all kernel time is the high end. */
		p.low = p.gain = share(calls, basis);
		p.high = share(calls + in->system_seconds, basis);
	}
	return p;
}

/* What another allocator would save. See verdict.h. */
static struct gt_prediction predict_allocator(const struct gt_verdict_input *in, double basis)
{
	struct gt_prediction p = {0};
	p.applies = in->allocator_seconds > 0;
	p.low = share(in->allocator_excess_slow, basis);
	p.gain = share(in->allocator_excess_usual, basis);
	p.high = share(in->allocator_seconds, basis);
	/*
	 * glibc's debugging work (filling blocks, checking them) is in its
	 * usual call too, so beyond-the-usual misses it; another allocator
	 * skips that work but still allocates: halfway to all the time inside.
	 */
	if (any_glibc_debugging(in))
		p.gain += (p.high - p.gain) / 2;
	/*
	 * Heap pages given back to the kernel and faulted in again: an
	 * allocator that keeps freed memory (mimalloc, jemalloc, for the
	 * length of a git command) saves their kernel time, which no call's
	 * time holds. glibc's trimming of a churning heap made 3× the faults of
	 * mimalloc in git blame, 12–16% of the run (docs/report.md).
	 */
	p.gain = fmin(1, p.gain + share(in->refault_point_seconds, basis));
	p.high = fmin(1, p.high + share(in->refault_seconds, basis));
	if (p.gain < p.low)
		p.gain = p.low;
	if (p.high < p.gain)
		p.high = p.gain;
	return p;
}

static void time_inside(struct gt_verdict *v, const struct gt_verdict_input *in, double denom)
{
	const char *they =
		in->unended == 1 ? "the process that did not end" : "processes that did not end";
	char of[160];
	if (v->shares_of_wall)
		snprintf(of, sizeof(of), "wall time (no CPU time: %s)",
			 in->unended > 1 ? "the processes did not end" : "the process did not end");
	else if (in->unended)
		snprintf(of, sizeof(of), "CPU time (wall time for the %u %s)", in->unended,
			 in->unended == 1 ? "process that did not end"
					  : "processes that did not end");
	else
		snprintf(of, sizeof(of), "CPU time");
	const char *allocator = any_other_allocator(in) ? "the preloaded allocator" : "glibc";
	/* Less than a thousandth of the run: noise of the estimate, not said. */
	int refaults = in->heap_refaults && share(in->refault_seconds, denom) >= 0.001;
	EVIDENCE("another allocator: predicted to save %.1f%% (%.1f–%.1f%%): the time %s's "
		 "slower calls of less than a page took beyond its usual (median) call%s; beyond "
		 "its 90th-percentile call: the low end; all the time inside%s: the high end. "
		 "Cache effects are not seen; gittrace --confirm measures",
		 100 * v->allocator.gain, 100 * v->allocator.low, 100 * v->allocator.high,
		 allocator, refaults ? ", and the heap's pages faulted in again (below)" : "",
		 refaults ? " and those faults" : "");
	if (refaults) {
		char faults[320];
		snprintf(faults, sizeof(faults),
			 "%llu page faults beyond what the run needed (one for each page of the "
			 "heap's peak, for each 64 KiB of the files mapped, and start-up's): heap "
			 "pages %s gave back to the kernel and faulted in again%s",
			 (unsigned long long)in->heap_refaults, allocator,
			 any_other_allocator(in)
				 ? ""
				 : " (glibc trims its heap and unmaps large blocks)");
		double per_fault = in->refault_seconds / (double)in->heap_refaults;
		if (in->page_cycle_seconds > 0)
			EVIDENCE("%s, about %s at %s a refault, which an allocator that keeps "
				 "freed memory saves: %d× what giving a page back and writing it "
				 "again took at the run's start (%s: the kernel's part, and "
				 "about as much again in the program refilling the page), but no "
				 "more than the run's system time a fault (%s, all of it %s: the "
				 "high end)",
				 faults, gt_format_seconds(in->refault_point_seconds).text,
				 gt_format_seconds(in->refault_point_seconds /
						   (double)in->heap_refaults)
					 .text,
				 GT_REFAULT_CYCLES, gt_format_seconds(in->page_cycle_seconds).text,
				 gt_format_seconds(per_fault).text,
				 gt_format_seconds(in->refault_seconds).text);
		else
			EVIDENCE(
				"%s, about %s of kernel time at this run's %s a fault, which an "
				"allocator that keeps freed memory saves%s",
				faults, gt_format_seconds(in->refault_seconds).text,
				gt_format_seconds(per_fault).text,
				in->refault_point_seconds >= in->refault_seconds ? ""
				: in->refault_point_seconds > 0
					? "; in the prediction only where they are most of a "
					  "process's faults, else in its high end (the kernel's "
					  "time per fault holds other system calls' then)"
					: "; in the prediction's high end only: they are less than "
					  "half of the faults, and the kernel's time per fault "
					  "holds other system calls' (file reads and writes) too");
	}
	EVIDENCE("%.1f%% of %s inside the malloc family (%s): time inside, an estimate of "
		 "what the allocator costs, not a bound on what another one saves",
		 100 * v->allocator_share, of, gt_format_seconds(in->allocator_seconds).text);
	if (v->window.applies)
		EVIDENCE("git's default windows: predicted to save %.1f%% (%.1f–%.1f%%): %s "
			 "in maps of regions mapped before and in evicting unmaps, %s of "
			 "kernel time (%.0f page faults) while such windows were mapped%s",
			 100 * v->window.gain, 100 * v->window.low, 100 * v->window.high,
			 gt_format_seconds(in->again_calls_seconds).text,
			 gt_format_seconds(in->again_system_seconds).text, in->again_faults,
			 !in->has_window_cost ? " (this trace has no fault readings: a trace "
						"format before 1.2)"
			 : in->again_system_seconds < GT_KERNEL_TIME_RESOLVED_S
				 ? " (kernel time this short is a count of clock ticks: the "
				   "prediction counts the calls' own time, the high end the ticks)"
			 : kernel_weight(in->again_system_seconds) < 1
				 ? " (kernel time this short is a few clock ticks: the prediction "
				   "counts it in part, the high end in full)"
				 : "");
	if (v->window_search) {
		char w[32];
		gt_format_bytes(w, sizeof(w), in->window);
		EVIDENCE("%.1f%% of %s inside mmap/munmap/mremap (%s), %s of system "
			 "time; but about %llu pack windows of %s were mapped at once, and git "
			 "searches a pack's list of windows on every read its current window does "
			 "not serve (packfile.c, use_pack): that costs the program's own time, "
			 "which the trace does not see, so a window setting may save up to %.1f%%; "
			 "gittrace --confirm measures it",
			 100 * v->mmap_share, of, gt_format_seconds(in->mmap_seconds).text,
			 gt_format_seconds(in->system_seconds).text,
			 (unsigned long long)in->peak_pack_windows, w, 100 * v->window_bound);
	} else if (!in->pack_mmaps) {
		EVIDENCE("%.1f%% of %s inside mmap/munmap/mremap (%s); no pack window was "
			 "mapped, so no window setting changes this run",
			 100 * v->mmap_share, of, gt_format_seconds(in->mmap_seconds).text);
	} else if (in->unended) {
		EVIDENCE("%.1f%% of %s inside mmap/munmap/mremap (%s); the kernel's time of "
			 "%s is unknown, so no bound on what a window setting saves is known",
			 100 * v->mmap_share, of, gt_format_seconds(in->mmap_seconds).text, they);
	} else if (v->window_bound >= 1) {
		/* "can save no more than 100%" would read as a bound; it is none. */
		EVIDENCE("%.1f%% of %s inside mmap/munmap/mremap (%s); with all the kernel's "
			 "time (%s of system time, which holds the tracer's own writes too), "
			 "together they reach the program's whole CPU time, so the trace sets no "
			 "bound on what a window setting saves",
			 100 * v->mmap_share, of, gt_format_seconds(in->mmap_seconds).text,
			 gt_format_seconds(in->system_seconds).text);
	} else {
		EVIDENCE("%.1f%% of %s inside mmap/munmap/mremap (%s); with all the kernel's "
			 "time (%s of system time), no window setting can save more than %.1f%%",
			 100 * v->mmap_share, of, gt_format_seconds(in->mmap_seconds).text,
			 gt_format_seconds(in->system_seconds).text, 100 * v->window_bound);
	}
	unsigned floors = in->inside_floors;
	const char *processes = floors == 1 ? "process" : "processes";
	if (!v->shares_of_wall && floors && in->tracer_seconds > 0)
		EVIDENCE("shares are of the program's own CPU time, %s: the tracer's "
			 "estimated %s are left out, but never below the time measured "
			 "inside the calls, as in %u %s (the estimate also counts the time calls "
			 "waited for the tracer's lock or for a CPU)",
			 gt_format_seconds(denom).text, gt_format_seconds(in->tracer_seconds).text,
			 floors, processes);
	else if (!v->shares_of_wall && floors)
		EVIDENCE("shares are of the program's own CPU time, %s, but never below the "
			 "time measured inside the calls (wall-clock time), as in %u %s",
			 gt_format_seconds(denom).text, floors, processes);
	else if (!v->shares_of_wall && in->tracer_seconds > 0)
		EVIDENCE("shares are of the program's own CPU time, %s: the tracer's "
			 "estimated %s are left out",
			 gt_format_seconds(denom).text, gt_format_seconds(in->tracer_seconds).text);
	if (in->capped_calls)
		EVIDENCE("%llu call%s took implausibly long for the bytes %s handled (a busy "
			 "machine: the thread waited for a CPU); %s left out of the shares",
			 (unsigned long long)in->capped_calls, in->capped_calls == 1 ? "" : "s",
			 in->capped_calls == 1 ? "it" : "they",
			 gt_format_seconds(in->capped_seconds).text);
	if (v->cpus_shared)
		EVIDENCE("the kernel switched the program out for other work %llu times (%.0f "
			 "a second of CPU time): with its CPUs shared, times inside calls hold "
			 "waits for a CPU and calls run slower after each switch, so the "
			 "predictions err high; trace on an idle machine, or measure with "
			 "gittrace --confirm",
			 (unsigned long long)in->involuntary_switches,
			 (double)in->involuntary_switches / in->cpu_seconds);
}

/* Whether the kernel often gave the program's CPUs to other work. */
static int cpus_shared(const struct gt_verdict_input *in)
{
	return in->cpu_seconds > 0 && in->involuntary_switches >= GT_SHARED_CPU_SWITCHES_MIN &&
	       (double)in->involuntary_switches >= GT_SHARED_CPU_SWITCHES_PER_S * in->cpu_seconds;
}

/* Whether the command gave git the window key (config keys ignore case). */
static int given_key(const struct gt_verdict_input *in, const char *key)
{
	const char *given = settings_given(in);
	return given && strcasestr(given, key);
}

/* Appends ", and " then what to buf (size bytes), if all of it fits. */
static void add_step(char *buf, size_t size, const char *what)
{
	size_t used = strlen(buf);
	if (used + 6 + strlen(what) < size)
		snprintf(buf + used, size - used, "%s%s", used ? ", and " : "", what);
}

/*
 * `git config` with the option that edits the file of setting s (a
 * "file:" origin): --file PATH for an absolute path; --local or
 * --worktree for the repository's own file, which git names relative to
 * where it found the repository (its top level in a work tree), and which
 * the command's options find again. Writes it to buf (size bytes) and
 * returns buf; NULL for a relative path of another file (from where?).
 */
static const char *config_in_file(const struct gt_verdict_input *in,
				  const struct gt_config_setting *s, char *buf, size_t size)
{
	const char *path = s->origin + 5;
	const char *reach = in->config_git ? in->config_git : git(in);
	if (path[0] == '/') {
		snprintf(buf, size, "git config --file");
		gt_shell_quote(buf, size, path);
	} else if (!strcmp(s->scope, "local") &&
		   (!strcmp(path, ".git/config") || !strcmp(path, "config"))) {
		snprintf(buf, size, "%s config --local", reach);
	} else if (!strcmp(s->scope, "worktree") &&
		   (!strcmp(path, ".git/config.worktree") || !strcmp(path, "config.worktree"))) {
		snprintf(buf, size, "%s config --worktree", reach);
	} else {
		return NULL; /* a file it includes, relative to where git found it */
	}
	return buf;
}

/*
 * `git config` that sets key where git reads the value that wins (the
 * last one the lookup found), so that a new value takes effect: one in the
 * repository's config would not, under a global file's include read after
 * it or a value from the environment. Writes it to buf (size bytes) and
 * returns buf; the plain `git config` when the lookup did not run or found
 * no value; NULL when the value that wins comes from the environment or
 * from a file not edited that way.
 */
static const char *config_where_it_wins(const struct gt_verdict_input *in, const char *key,
					char *buf, size_t size)
{
	const struct gt_config_origins *c = in->config;
	const struct gt_config_setting *last = NULL;
	for (size_t i = 0; c && i < c->n; i++)
		if (!strcasecmp(c->v[i].key, key))
			last = &c->v[i];
	if (!last) {
		snprintf(buf, size, "%s config", git(in));
		return buf;
	}
	if (strncmp(last->origin, "file:", 5) != 0)
		return NULL;
	return config_in_file(in, last, buf, size);
}

/*
 * How to unset key (as git's documentation spells it) where the config
 * lookup found it set (config_origins.h): in each file that sets it, and
 * in the environment for a value from there. Writes it to buf (size
 * bytes) and returns buf; NULL if the lookup did not run, found no value
 * of key, or found one from a place not edited that way (the generic
 * --unset stands then).
 */
static const char *unset_where_set(const struct gt_verdict_input *in, const char *key, char *buf,
				   size_t size)
{
	const struct gt_config_origins *c = in->config;
	buf[0] = '\0';
	int from_env = 0;
	for (size_t i = 0; c && i < c->n; i++) {
		const struct gt_config_setting *s = &c->v[i];
		if (strcasecmp(s->key, key) != 0)
			continue;
		if (!strcmp(s->origin, "command line:")) {
			from_env = 1;
			continue;
		}
		if (strncmp(s->origin, "file:", 5) != 0)
			return NULL;
		int seen = 0; /* a file that sets it twice: one --unset-all */
		for (size_t j = 0; j < i && !seen; j++)
			seen = !strcasecmp(c->v[j].key, key) && !strcmp(c->v[j].origin, s->origin);
		if (seen)
			continue;
		char step[1200];
		if (!config_in_file(in, s, step, sizeof(step)))
			return NULL;
		snprintf(step + strlen(step), sizeof(step) - strlen(step), " --unset-all %s", key);
		add_step(buf, size, step);
	}
	if (from_env) {
		char step[300];
		snprintf(step, sizeof(step),
			 "drop %s from the environment that sets it (GIT_CONFIG_PARAMETERS, or "
			 "GIT_CONFIG_COUNT with GIT_CONFIG_KEY_<n> and GIT_CONFIG_VALUE_<n>)",
			 key);
		add_step(buf, size, step);
	}
	return buf[0] ? buf : NULL;
}

static void window_suggestions(struct gt_verdict *v, const struct gt_verdict_input *in)
{
	char a[32], unset[1600] = "", limit_where[1500], window_where[1500], set[1200];
	const struct gt_window_advice *wa = in->window_advice;
	int limit_given = given_key(in, "core.packedGitLimit=");
	/* Where the config lookup found a setting, its file is known. */
	const char *limit_set = limit_given ? NULL
					    : unset_where_set(in, "core.packedGitLimit",
							      limit_where, sizeof(limit_where));
	if (limit_set)
		snprintf(unset, sizeof(unset), "%s (default 32 TiB on 64-bit)", limit_set);
	else if (!limit_given)
		snprintf(unset, sizeof(unset),
			 "%s config --unset core.packedGitLimit (default 32 TiB on 64-bit)",
			 git(in));
	int window_given = given_key(in, "core.packedGitWindowSize=");
	int small_window = window_lowered(in);
	if (settings_given(in))
		SUGGEST("the command sets them: drop %s from it (git passes its -c settings on "
			"to the commands it runs)",
			settings_given(in));
	if (in->evictions && wa && wa->many_windows)
		SUGGEST("%s%snot a higher limit alone: one at which every window the run mapped "
			"stays mapped (%s) holds %llu windows of %s, which git searches one by "
			"one; with a limit, raise core.packedGitWindowSize too",
			unset, limit_given ? "" : ", but ", wa->limit_value,
			(unsigned long long)(wa->limit / wa->window), wa->window_value);
	else if (in->evictions && wa && limit_given)
		SUGGEST("or, to keep a limit, one at which every window the run mapped stays "
			"mapped (window advice): git %s",
			wa->git_config);
	else if (in->evictions && wa &&
		 config_where_it_wins(in, "core.packedGitLimit", set, sizeof(set)))
		SUGGEST("%s; or, to keep a limit, one at which every window the run mapped stays "
			"mapped (window advice): %s --replace-all core.packedGitLimit %s%s%s, or "
			"git %s for one "
			"command",
			unset, set, wa->limit_value,
			wa->window ? " with core.packedGitWindowSize " : "", wa->window_value,
			wa->git_config);
	else if (in->evictions && wa)
		SUGGEST("%s; or, to keep a limit, one at which every window the run mapped stays "
			"mapped (window advice): core.packedGitLimit=%s%s%s where it is set now, "
			"or "
			"git %s for one command",
			unset, wa->limit_value, wa->window ? " with core.packedGitWindowSize=" : "",
			wa->window_value, wa->git_config);
	else if (in->evictions && !limit_given)
		SUGGEST("%s, or set it above the size of your packs", unset);
	const char *window_set = window_given ? NULL
					      : unset_where_set(in, "core.packedGitWindowSize",
								window_where, sizeof(window_where));
	if (small_window && !window_given) {
		gt_format_bytes(a, sizeof(a), in->window);
		if (window_set)
			SUGGEST("%s (now %s; default 1g on 64-bit)", window_set, a);
		else
			SUGGEST("%s config --unset core.packedGitWindowSize (now %s; default 1g on "
				"64-bit), or set core.packedGitWindowSize=1g",
				git(in), a);
	}
	/* What the command line does not set comes from a config file: which? */
	if ((in->evictions && !limit_given && !limit_set) ||
	    (small_window && !window_given && !window_set))
		SUGGEST("find which config file sets them: GIT_TRACE2=1 "
			"GIT_TRACE2_CONFIG_PARAMS='core.packed*' %s version, or %s config "
			"--show-origin --get-regexp '^core\\.packed'",
			git(in), git(in));
}

/*
 * What a window-bound headline says to do: unset the settings the run saw
 * lowered (both, when the trace shows neither: regions mapped again with
 * no eviction), or drop those the command gave git and unset the others.
 */
static const char *window_remedy(const struct gt_verdict_input *in, char *buf, size_t size)
{
	const char *given = settings_given(in);
	int limit = in->evictions && !given_key(in, "core.packedGitLimit=");
	int window = window_lowered(in) && !given_key(in, "core.packedGitWindowSize=");
	if (!given && !limit && !window)
		limit = window = 1;
	snprintf(buf, size, "%s%s%s%s%s", given ? "drop the command's " : "", given ? given : "",
		 given && (limit || window) ? "; " : "", limit || window ? "unset " : "",
		 limit && window ? "core.packedGitLimit and core.packedGitWindowSize"
		 : limit	 ? "core.packedGitLimit"
		 : window	 ? "core.packedGitWindowSize"
				 : "");
	return buf;
}

/* The clause a neither headline ends with when git's search of many windows is unseen. */
static const char *search_clause(const struct gt_verdict_input *in, char *buf, size_t size)
{
	char w[32];
	gt_format_bytes(w, sizeof(w), in->window);
	snprintf(buf, size,
		 "; but about %llu windows of %s were mapped at once, and git's search of them "
		 "is not timed: measure git's default windows with gittrace --confirm",
		 (unsigned long long)in->peak_pack_windows, w);
	return buf;
}

/* Loose objects enough to suggest packing them, read by a run that does not pack them. */
static int many_loose(const struct gt_verdict_input *in)
{
	return in->loose_mmaps >= GT_LOOSE_MANY && !in->packer;
}

/*
 * The clause a headline ends with when many loose objects were read, not
 * "look elsewhere" beside the suggestion to pack them: git log -p of
 * git.git up to v1.0.0 from 12,233 loose objects (31,900 reads) took 5.5 s,
 * and 1.9 s after git gc; its trace predicted 19% from another allocator.
 */
static const char *loose_clause(const struct gt_verdict_input *in, char *buf, size_t size)
{
	snprintf(buf, size,
		 "; but %llu loose objects were read: packing them (git gc) may save more, "
		 "which the trace does not predict",
		 (unsigned long long)in->loose_mmaps);
	return buf;
}

/* A prediction's interval in whole percent: "5–26%", or "8%" where its ends round alike. */
struct percent_range {
	char text[32];
};

static struct percent_range range_of(const struct gt_prediction *p)
{
	struct percent_range r;
	double lo = round(100 * p->low), hi = round(100 * p->high);
	if (lo == hi)
		snprintf(r.text, sizeof(r.text), "%.0f%%", lo);
	else
		snprintf(r.text, sizeof(r.text), "%.0f–%.0f%%", lo, hi);
	return r;
}

/*
 * A predicted saving below the class's minimum, as the "neither" headline
 * gives it: whole percents, unless rounding would reach the minimum
 * ("about 10%" beside "no remedy is predicted to save 10%" for 9.8%):
 * then one decimal, rounded down.
 */
static struct percent_range below_class_min(double gain)
{
	struct percent_range r;
	double pct = 100 * gain;
	if (round(pct) >= round(100 * GT_GAIN_CLASS_MIN))
		snprintf(r.text, sizeof(r.text), "%.1f%%", floor(10 * pct) / 10);
	else
		snprintf(r.text, sizeof(r.text), "%.0f%%", pct);
	return r;
}

/*
 * The clause a headline ends with when windows were lowered but are not
 * the class: what the trace saw them cost (seen: the prediction before
 * git's unseen search widened it), and that search if there is one.
 */
static const char *lowered_clause(const struct gt_verdict *v, const struct gt_verdict_input *in,
				  const struct gt_prediction *seen, char *buf, size_t size)
{
	if (!in->evictions || v->cls == GT_VERDICT_WINDOW)
		return "";
	int n = snprintf(buf, size,
			 "; core.packedGitLimit was lowered (%llu evictions), which costs about "
			 "%.0f%% (%s)",
			 (unsigned long long)in->evictions, 100 * seen->gain, range_of(seen).text);
	if (v->window_search && n > 0 && (size_t)n < size)
		search_clause(in, buf + n, size - (size_t)n);
	return buf;
}

/*
 * The replay's predictions beside the estimate from time inside the
 * allocator, and where the two disagree: an allocator-bound class that no
 * replayed allocator bears out, or a replayed allocator that saves a
 * class's worth when the class is not allocator-bound.
 */
static void replay_evidence(struct gt_verdict *v, const struct gt_verdict_input *in, double denom)
{
	if (!in->nreplay)
		return;
	v->replay = gt_xcalloc(in->nreplay, sizeof(*v->replay));
	v->nreplay = in->nreplay;
	const struct gt_replay_change *best = NULL;
	for (size_t i = 0; i < in->nreplay; i++) {
		struct gt_replay_change *c = &v->replay[i];
		c->allocator = in->replay[i].allocator;
		/* Not share(): a replay may well predict more than the run's time. */
		c->change = denom > 0 ? in->replay[i].seconds / denom : 0;
		c->low = denom > 0 ? in->replay[i].low / denom : 0;
		c->high = denom > 0 ? in->replay[i].high / denom : 0;
		if (!best || c->change < best->change)
			best = c;
		if (!isnan(c->low)) /* NaN: one round, no interval */
			EVIDENCE("replay: %s changes the run by %+.1f%% (%+.1f to %+.1f%%), beside "
				 "the estimate of another allocator's saving, %.1f%%",
				 c->allocator, 100 * c->change, 100 * c->low, 100 * c->high,
				 100 * v->allocator.gain);
		else
			EVIDENCE("replay: %s changes the run by %+.1f%% (one round: no interval), "
				 "beside the estimate of another allocator's saving, %.1f%%",
				 c->allocator, 100 * c->change, 100 * v->allocator.gain);
	}
	if (v->cls == GT_VERDICT_ALLOCATOR && -best->change < GT_GAIN_NOTABLE_MIN)
		EVIDENCE("the replay disagrees: no replayed allocator saves %.0f%% of the run; "
			 "measure before switching",
			 100 * GT_GAIN_NOTABLE_MIN);
	else if (v->cls != GT_VERDICT_ALLOCATOR && -best->change >= GT_GAIN_CLASS_MIN)
		EVIDENCE("the replay disagrees: %s would save %.0f%% of the run; measure it: "
			 "gittrace ab --alloc %s -- %s",
			 best->allocator, -100 * best->change, best->allocator, command(in));
}

void gt_verdict_compute(struct gt_verdict *v, const struct gt_verdict_input *in)
{
	memset(v, 0, sizeof(*v));
	double denom = in->cpu_seconds;
	if (denom <= 0) {
		denom = in->wall_seconds;
		v->shares_of_wall = 1;
	}
	v->allocator_share = share(in->allocator_seconds, denom);
	v->mmap_share = share(in->mmap_seconds, denom);
	v->window = predict_windows(in, denom);
	struct gt_prediction seen = v->window;
	v->window_search = window_search_unseen(in);
	double outside_allocator = share(denom - in->allocator_seconds, denom);
	if (v->window_search && v->window.high < outside_allocator)
		v->window.high = outside_allocator;
	if (v->window_search)
		v->window_bound = v->window.high;
	else if (!in->pack_mmaps)
		v->window_bound = 0; /* no window mapped: no setting of them changes the run */
	else if (in->unended)
		v->window_bound = NAN; /* part of the kernel's time is unknown */
	else
		v->window_bound = share(in->mmap_seconds + in->system_seconds, denom);
	v->allocator = predict_allocator(in, denom);
	v->cpus_shared = cpus_shared(in);

	const struct gt_prediction *best =
		v->window.gain >= v->allocator.gain ? &v->window : &v->allocator;
	if (best->gain < GT_GAIN_CLASS_MIN)
		v->cls = GT_VERDICT_NEITHER;
	else
		v->cls = best == &v->window ? GT_VERDICT_WINDOW : GT_VERDICT_ALLOCATOR;

	time_inside(v, in, denom);
	replay_evidence(v, in, denom);
	if (in->allocations && denom > 0)
		EVIDENCE("%llu allocations (%.0f per second), %llu temporary",
			 (unsigned long long)in->allocations, (double)in->allocations / denom,
			 (unsigned long long)in->temporary);
	window_facts(v, in);
	inflating_env(v, in);
	if (in->loose_mmaps && in->packer)
		EVIDENCE("%llu loose objects mapped: objects not in packs, which the run's "
			 "git %s packs",
			 (unsigned long long)in->loose_mmaps, in->packer);
	else if (in->loose_mmaps)
		EVIDENCE("%llu loose objects mapped: objects not in packs",
			 (unsigned long long)in->loose_mmaps);

	char clause[400], remedy[400], loose[160];
	const char *lowered = lowered_clause(v, in, &seen, clause, sizeof(clause));
	switch (v->cls) {
	case GT_VERDICT_WINDOW:
		v->headline = fmt("window-bound: git's default pack windows would save about "
				  "%.0f%% of the run (%s); %s",
				  100 * v->window.gain, range_of(&v->window).text,
				  window_remedy(in, remedy, sizeof(remedy)));
		window_suggestions(v, in);
		SUGGEST("measure what git's defaults win: gittrace --confirm -- %s", command(in));
		break;
	case GT_VERDICT_ALLOCATOR:
		for (size_t i = 0; i < in->ntop_sites && i < 3; i++)
			EVIDENCE("top churning site: %s", in->top_sites[i]);
		v->headline = fmt("allocator-bound: another allocator would save about %.0f%% of "
				  "the run (%s); confirm with gittrace --confirm%s%s",
				  100 * v->allocator.gain, range_of(&v->allocator).text, lowered,
				  many_loose(in) ? loose_clause(in, loose, sizeof(loose)) : "");
		SUGGEST("measure what another allocator wins: gittrace --confirm -- %s (or "
			"gittrace ab --alloc mimalloc --alloc jemalloc -- %s; Debian: "
			"libmimalloc2.0, libjemalloc2)",
			command(in), command(in));
		if (in->ntop_sites && strcmp(in->top_sites[0], "?") != 0)
			SUGGEST("reduce churn at the top sites, starting with %s",
				in->top_sites[0]);
		if (in->evictions)
			window_suggestions(v, in);
		break;
	case GT_VERDICT_NEITHER:
		/* Not "look elsewhere": with no call seen there is nothing to weigh. */
		if (!in->allocations && !in->map_calls && in->allocator_seconds == 0 &&
		    in->mmap_seconds == 0) {
			v->headline = fmt(
				"neither: the trace holds no allocation or map call to "
				"judge by%s",
				in->unended ? " (it was cut short: trace the command again)" : "");
			SUGGEST("measure instead: gittrace --confirm -- %s", command(in));
			break;
		}
		/* git's search of its windows is unseen: no "about 0%" beside "up to 99%". */
		char windows[64];
		if (v->window_search)
			snprintf(windows, sizeof(windows), "default windows unseen, up to %.0f%%",
				 100 * v->window.high);
		else
			snprintf(windows, sizeof(windows), "default windows about %s",
				 below_class_min(v->window.gain).text);
		v->headline = fmt("neither: no remedy is predicted to save %.0f%% of the run "
				  "(%s, another allocator about %s)%s",
				  100 * GT_GAIN_CLASS_MIN, windows,
				  below_class_min(v->allocator.gain).text,
				  *lowered	     ? lowered
				  : v->window_search ? search_clause(in, clause, sizeof(clause))
				  : many_loose(in)   ? loose_clause(in, loose, sizeof(loose))
						     : "; look elsewhere (I/O, hashing, deltas)");
		if (in->evictions || v->window_search)
			window_suggestions(v, in);
		SUGGEST("check the prediction by measuring: gittrace --confirm -- %s", command(in));
		break;
	}
	if (many_loose(in))
		SUGGEST("run git gc (or git maintenance run --task=gc) to pack the %llu loose "
			"objects read (not measured here); this is not a window problem",
			(unsigned long long)in->loose_mmaps);
}

void gt_verdict_price_refaults(struct gt_verdict_input *in, uint64_t faults)
{
	in->refault_seconds = in->refault_point_seconds = 0;
	if (!faults)
		return;
	in->refault_seconds = in->system_seconds * (double)in->heap_refaults / (double)faults;
	if (in->page_cycle_seconds > 0)
		in->refault_point_seconds =
			fmin(in->refault_seconds, (double)in->heap_refaults * GT_REFAULT_CYCLES *
							  in->page_cycle_seconds);
	else if (2 * in->heap_refaults >= faults)
		in->refault_point_seconds = in->refault_seconds;
}

void gt_verdict_release(struct gt_verdict *v)
{
	for (size_t i = 0; i < v->nevidence; i++)
		free(v->evidence[i]);
	for (size_t i = 0; i < v->nsuggestions; i++)
		free(v->suggestions[i]);
	free(v->evidence);
	free(v->suggestions);
	free(v->headline);
	free(v->replay);
	memset(v, 0, sizeof(*v));
}
