/* Command-line parsing of gittrace-ab (see options.h). */
#define _GNU_SOURCE
#include "options.h"
#include "compose.h"
#include "die.h"
#include "shuffle.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage_text[] =
	"usage: gittrace-ab [options] -- CMD [ARG...]\n"
	"\n"
	"Runs CMD once per variant in each round, in a random order, and says whether\n"
	"a variant is faster or slower than the first one (the baseline).\n"
	"\n"
	"variants (the first is the baseline; given only one, \"system\" or \"default\",\n"
	"the unchanged command, is added in front of it):\n"
	"  --alloc NAME         preload an allocator: system, mimalloc, jemalloc or the\n"
	"                       path of a shared library\n"
	"  --variant NAME=SPEC  SPEC: -c KEY=VALUE (git settings, through GIT_CONFIG_COUNT)\n"
	"                       and/or --alloc NAME, separated by spaces\n"
	"  --common SPEC        added to every variant, the baseline too (same SPEC)\n"
	"a lone --alloc beside --variant is the baseline with that allocator (it keeps\n"
	"the baseline's git settings)\n"
	"method:\n"
	"  --rounds N           measured rounds, each runs every variant once (default 5)\n"
	"  --precision PCT      then more rounds, until every ratio's 95% interval (wall\n"
	"                       and CPU time) is within PCT percent either side\n"
	"  --max-rounds N       with --precision: at most N rounds (default 10 x --rounds)\n"
	"  --max-seconds S      with --precision: no round begun after S seconds\n"
	"  --warmups N          unmeasured runs of each variant first (default 1)\n"
	"  --seed N             seed of the order, 0..4294967295 (default: random)\n"
	"  --template DIR       run CMD in a fresh copy of DIR each time (copy not timed)\n"
	"  --workdir DIR        put the scratch directory in DIR (default $TMPDIR or /tmp)\n"
	"  --keep-going         note a failing run and go on (exit status still non-zero)\n"
	"  --show-output        CMD writes to our stdout and stderr (default: stdout\n"
	"                       discarded, stderr shown if CMD fails)\n"
	"output:\n"
	"  --json               the result as JSON on stdout (see docs/ab.md)\n"
	"  --no-progress        no progress line on stderr (shown only on a terminal)\n"
	"  -h, --help           this text\n"
	"\n"
	"exit status: 0 done, 1 bad input or CMD cannot be started, 2 usage; when CMD\n"
	"fails, its own exit status (128+N when killed by signal N).\n";

enum {
	OPT_ALLOC = 256,
	OPT_VARIANT,
	OPT_COMMON,
	OPT_ROUNDS,
	OPT_PRECISION,
	OPT_MAX_ROUNDS,
	OPT_MAX_SECONDS,
	OPT_WARMUPS,
	OPT_SEED,
	OPT_TEMPLATE,
	OPT_WORKDIR,
	OPT_KEEP_GOING,
	OPT_SHOW_OUTPUT,
	OPT_JSON,
	OPT_NO_PROGRESS,
};

static const struct option longopts[] = {
	{"alloc", required_argument, NULL, OPT_ALLOC},
	{"variant", required_argument, NULL, OPT_VARIANT},
	{"common", required_argument, NULL, OPT_COMMON},
	{"rounds", required_argument, NULL, OPT_ROUNDS},
	{"precision", required_argument, NULL, OPT_PRECISION},
	{"max-rounds", required_argument, NULL, OPT_MAX_ROUNDS},
	{"max-seconds", required_argument, NULL, OPT_MAX_SECONDS},
	{"warmups", required_argument, NULL, OPT_WARMUPS},
	{"seed", required_argument, NULL, OPT_SEED},
	{"template", required_argument, NULL, OPT_TEMPLATE},
	{"workdir", required_argument, NULL, OPT_WORKDIR},
	{"keep-going", no_argument, NULL, OPT_KEEP_GOING},
	{"show-output", no_argument, NULL, OPT_SHOW_OUTPUT},
	{"json", no_argument, NULL, OPT_JSON},
	{"no-progress", no_argument, NULL, OPT_NO_PROGRESS},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

static unsigned long parse_number(const char *arg, const char *opt, unsigned long min,
				  unsigned long max)
{
	char *end;
	errno = 0;
	unsigned long n = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || *arg == '-' || n < min || n > max)
		gt_ab_usage_error("%s wants a number from %lu to %lu, not '%s'", opt, min, max,
				  arg);
	return n;
}

/* A positive decimal number such as "2.5", from above 0 to max. */
static double parse_positive(const char *arg, const char *opt, double max)
{
	char *end;
	errno = 0;
	double x = strtod(arg, &end);
	if (errno || end == arg || *end || !(x > 0) || x > max)
		gt_ab_usage_error("%s wants a number above 0, at most %g, not '%s'", opt, max, arg);
	return x;
}

static struct gt_ab_variant *add_variant(struct gt_ab_options *o)
{
	o->variants = gt_ab_xreallocarray(o->variants, o->nvariants + 1, sizeof(*o->variants));
	return &o->variants[o->nvariants++];
}

void gt_ab_options_parse(struct gt_ab_options *o, int argc, char **argv)
{
	memset(o, 0, sizeof(*o));
	o->rounds = 5;
	o->warmups = 1;
	o->progress = isatty(2);
	int seed_given = 0;
	struct gt_ab_variant common = {0};
	int have_common = 0;

	opterr = 0; /* our own messages, in the house format */
	int c;
	while ((c = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_ALLOC:
			gt_ab_variant_from_alloc(add_variant(o), optarg);
			break;
		case OPT_VARIANT:
			gt_ab_variant_from_spec(add_variant(o), optarg);
			break;
		case OPT_COMMON:
			gt_ab_variant_parse_spec(&common, optarg, "--common");
			have_common = 1;
			break;
		case OPT_ROUNDS:
			o->rounds = (unsigned)parse_number(optarg, "--rounds", 2, 100000);
			break;
		case OPT_PRECISION:
			o->precision = parse_positive(optarg, "--precision", 100) / 100;
			break;
		case OPT_MAX_ROUNDS:
			o->max_rounds = (unsigned)parse_number(optarg, "--max-rounds", 2, 100000);
			break;
		case OPT_MAX_SECONDS:
			o->max_seconds = parse_positive(optarg, "--max-seconds", 1e9);
			break;
		case OPT_WARMUPS:
			o->warmups = (unsigned)parse_number(optarg, "--warmups", 0, 100);
			break;
		case OPT_SEED:
			o->seed = (uint32_t)parse_number(optarg, "--seed", 0, UINT32_MAX);
			seed_given = 1;
			break;
		case OPT_TEMPLATE:
			o->template_dir = optarg;
			break;
		case OPT_WORKDIR:
			o->workdir_parent = optarg;
			break;
		case OPT_KEEP_GOING:
			o->keep_going = 1;
			break;
		case OPT_SHOW_OUTPUT:
			o->show_output = 1;
			break;
		case OPT_JSON:
			o->json = 1;
			break;
		case OPT_NO_PROGRESS:
			o->progress = 0;
			break;
		case 'h':
			fputs(usage_text, stdout);
			exit(0);
		default:
			/* getopt_long sets optopt to the option's value when its
			 * argument is missing, to the letter of an unknown short
			 * option, and to 0 for an unknown long one. */
			if (optopt >= 256)
				gt_ab_usage_error("option '%s' needs an argument",
						  argv[optind - 1]);
			if (optopt)
				gt_ab_usage_error("unknown option '-%c'", optopt);
			gt_ab_usage_error("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind >= argc)
		gt_ab_usage_error("no command to run (put it after --)");
	if (!o->precision && (o->max_rounds || o->max_seconds))
		gt_ab_usage_error("--max-rounds and --max-seconds go with --precision");
	if (!o->max_rounds)
		o->max_rounds = o->precision ? 10 * o->rounds : o->rounds;
	if (o->max_rounds < o->rounds)
		gt_ab_usage_error("--max-rounds %u is below --rounds %u", o->max_rounds, o->rounds);
	o->command = argv + optind;

	if (!o->nvariants)
		gt_ab_usage_error("no variants (give --alloc or --variant)");
	if (o->nvariants == 1) {
		/* One variant means "against the unchanged command": put that first. */
		struct gt_ab_variant only = o->variants[0];
		add_variant(o);
		o->variants[1] = only;
		gt_ab_variant_baseline(&o->variants[0], &only);
	}
	gt_ab_variants_check_unique(o->variants, o->nvariants);
	gt_ab_variants_compose(o->variants, o->nvariants, have_common ? &common : NULL);
	gt_ab_variant_release(&common);
	gt_ab_variants_warn_mixed(o->variants, o->nvariants);

	if (o->template_dir && access(o->template_dir, R_OK | X_OK) < 0)
		gt_ab_die_errno("cannot open '%s'", o->template_dir);
	if (!seed_given)
		o->seed = gt_ab_seed_default();
}

void gt_ab_options_release(struct gt_ab_options *o)
{
	for (size_t i = 0; i < o->nvariants; i++)
		gt_ab_variant_release(&o->variants[i]);
	free(o->variants);
	memset(o, 0, sizeof(*o));
}
