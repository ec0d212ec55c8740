/*
 * gittrace-replay: replays each process image's recorded malloc-family
 * calls against the system allocator and others, and predicts what
 * another allocator would change in the whole run (docs/replay.md).
 *
 * usage: gittrace-replay [--alloc NAME]... [--pid PID] [--rounds N] [--json] TRACE
 * Exit: 0 done, 1 bad input or a replay that failed, 2 usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ab/allocator.h"
#include "ab/die.h"
#include "die.h"
#include "extract.h"
#include "measure.h"
#include "output.h"
#include "run.h"
#include "scratch.h"

#define DEFAULT_ROUNDS 5
#define MAX_ROUNDS     1000

static const char usage[] =
	"usage: gittrace-replay [--alloc NAME]... [--pid PID] [--rounds N] [--json] TRACE\n"
	"\n"
	"Replays the malloc-family calls of each process image in TRACE against the\n"
	"system allocator and each NAME (mimalloc, jemalloc or a library's path), in\n"
	"a process of its own per allocator, and predicts the change of the whole run.\n"
	"\n"
	"  --alloc NAME   an allocator to compare with the system's (repeatable)\n"
	"  --pid PID      only the images of this process\n"
	"  --rounds N     replays per allocator, interleaved (default 5)\n"
	"  --json         JSON instead of text (docs/replay.md)\n";

struct options {
	struct gt_replay_allocator *allocs; /* system's first */
	size_t nalloc;
	long pid;
	size_t rounds;
	int json;
	const char *trace;
};

static long number(const char *arg, const char *what, long max)
{
	char *end;
	long v = strtol(arg, &end, 10);
	if (end == arg || *end || v < 1 || v > max)
		gt_usage_error("bad %s '%s'", what, arg);
	return v;
}

static void add_allocator(struct options *o, const char *name)
{
	if (!strcmp(name, "system"))
		gt_usage_error("the system allocator is always replayed; --alloc names another");
	o->allocs = gt_xrealloc(o->allocs, (o->nalloc + 1) * sizeof(*o->allocs));
	o->allocs[o->nalloc].name = name;
	o->allocs[o->nalloc].preload = gt_ab_allocator_resolve(name);
	o->nalloc++;
}

static void parse(int argc, char **argv, struct options *o)
{
	static const struct option longs[] = {
		{"alloc", required_argument, NULL, 'a'},  {"pid", required_argument, NULL, 'p'},
		{"rounds", required_argument, NULL, 'r'}, {"json", no_argument, NULL, 'j'},
		{"help", no_argument, NULL, 'h'},	  {NULL, 0, NULL, 0}};
	o->allocs = gt_xcalloc(1, sizeof(*o->allocs));
	o->allocs[0].name = "system";
	o->nalloc = 1;
	o->rounds = DEFAULT_ROUNDS;
	int c;
	while ((c = getopt_long(argc, argv, "", longs, NULL)) != -1) {
		switch (c) {
		case 'a':
			add_allocator(o, optarg);
			break;
		case 'p':
			o->pid = number(optarg, "pid", 0x7fffffffL);
			break;
		case 'r':
			o->rounds = (size_t)number(optarg, "round count", MAX_ROUNDS);
			break;
		case 'j':
			o->json = 1;
			break;
		case 'h':
			fputs(usage, stdout);
			exit(0);
		default:
			gt_usage_error("unknown option");
		}
	}
	if (optind != argc - 1)
		gt_usage_error(optind == argc ? "no trace given" : "one trace only");
	o->trace = argv[optind];
}

/* Says plainly when an image's replay is not the whole of what it did. */
static void warn_partial(const struct gt_replay_image *img)
{
	uint64_t off = img->untracked_frees + img->untracked_reallocs + img->unknown_calls;
	if (off)
		gt_warnf("pid %u: %llu of %llu calls not replayed as recorded (frees and reallocs "
			 "of blocks never seen allocated, calls of unknown functions)",
			 img->pid, (unsigned long long)off,
			 (unsigned long long)(img->recorded_calls + img->unknown_calls));
}

/* Says which recorded functions an allocator lacks (runner.c replays them
 * through its realloc and posix_memalign). */
static void warn_emulated(const struct gt_replay_allocator *a, unsigned mask)
{
	char names[256] = "";
	for (int fn = 0; fn < GT_REPLAY_FNS; fn++)
		if (mask & 1u << fn)
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
				 *names ? ", " : "", gt_fn_names[fn]);
	if (mask)
		gt_warnf("%s has no %s: replayed through its realloc or posix_memalign", a->name,
			 names);
}

int main(int argc, char **argv)
{
	gt_set_program_name("gittrace-replay");
	gt_ab_program_name = "gittrace-replay";
	struct options o = {0};
	parse(argc, argv, &o);
	char *runner = gt_replay_runner_path();

	const char *scratch = gt_replay_scratch_open();
	struct gt_replay_images images;
	gt_replay_extract(o.trace, scratch, o.pid, &images);
	if (!images.n) {
		if (o.pid)
			gt_die("nothing to replay: no image of pid %ld made malloc-family calls in "
			       "'%s'",
			       o.pid, o.trace);
		gt_die("nothing to replay: no malloc-family calls in '%s'", o.trace);
	}

	struct gt_replay_result *results = gt_xcalloc(images.n, sizeof(*results));
	unsigned *emulated = gt_xcalloc(o.nalloc, sizeof(*emulated));
	for (size_t i = 0; i < images.n; i++) {
		warn_partial(&images.v[i]);
		gt_replay_measure(&images.v[i], runner, o.allocs, o.nalloc, o.rounds, &results[i],
				  emulated);
	}
	for (size_t a = 0; a < o.nalloc; a++)
		warn_emulated(&o.allocs[a], emulated[a]);
	free(emulated);
	struct gt_replay_output out = {.trace = o.trace,
				       .allocs = o.allocs,
				       .nalloc = o.nalloc,
				       .rounds = o.rounds,
				       .results = results,
				       .n = images.n};
	if (o.json)
		gt_replay_print_json(stdout, &out);
	else
		gt_replay_print_text(stdout, &out);

	for (size_t i = 0; i < images.n; i++)
		gt_replay_result_release(&results[i]);
	free(results);
	gt_replay_images_release(&images);
	for (size_t a = 1; a < o.nalloc; a++)
		free((char *)o.allocs[a].preload);
	free(o.allocs);
	free(runner);
	if (fflush(stdout) || ferror(stdout))
		gt_die("cannot write the result: %s", strerror(errno));
	return 0;
}
