/* The comparison as text (see report.h). */
#include "report.h"

#include <math.h>
#include <string.h>

char *gt_ab_conclusion(char *buf, size_t size, const struct gt_ab_options *o,
		       const struct gt_ab_variant_summary *s, size_t v)
{
	return gt_ab_verdict_format(buf, size, o->variants[v].name, o->variants[0].name,
				    &s[v].wall.verdict);
}

/* Seconds below 1 read better as milliseconds. */
static void print_value(FILE *out, enum gt_ab_metric m, double x, int ms)
{
	if (isnan(x)) {
		fputs("-", out);
		return;
	}
	switch (m) {
	case GT_AB_WALL:
	case GT_AB_USER:
	case GT_AB_SYS:
		if (ms)
			fprintf(out, "%.1f ms", x * 1e3);
		else
			fprintf(out, "%.3f s", x);
		break;
	case GT_AB_MAXRSS:
		fprintf(out, "%.1f MiB", x / 1024);
		break;
	default:
		fprintf(out, "%.0f", x);
		break;
	}
}

static const char *const metric_labels[GT_AB_METRICS] = {
	"wall", "user", "sys", "maxrss", "minflt", "majflt",
};

static void print_metrics(FILE *out, const struct gt_ab_variant_summary *vs)
{
	for (int m = 0; m < GT_AB_METRICS; m++) {
		const struct gt_ab_metric_summary *ms = &vs->m[m];
		int in_ms = ms->median < 1;
		fprintf(out, "  %-7s median ", metric_labels[m]);
		print_value(out, m, ms->median, in_ms);
		fputs("   mean ", out);
		print_value(out, m, ms->mean, in_ms);
		fputs(" \u00b1 ", out);
		print_value(out, m, ms->stdev, in_ms);
		fputc('\n', out);
	}
}

static void print_paired(FILE *out, const char *what, const char *baseline,
			 const struct gt_ab_paired *p)
{
	fprintf(out, "  %s / %s per round:", what, baseline);
	for (size_t r = 0; r < p->rounds; r++) {
		if (isnan(p->per_round[r]))
			fputs(" -", out);
		else
			fprintf(out, " %.3f", p->per_round[r]);
	}
	if (p->ok)
		fprintf(out, "; geometric mean %.3f (95%% CI %.3f\u2013%.3f)", p->ci.geomean,
			p->ci.low, p->ci.high);
	fputc('\n', out);
}

static void print_command(FILE *out, char **argv)
{
	for (char **a = argv; *a; a++) {
		int plain = **a && strspn(*a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
					      "0123456789-_./=:,+@%") == strlen(*a);
		fprintf(out, plain ? "%s%s" : "%s'%s'", a == argv ? "" : " ", *a);
	}
}

/* Why the rounds stopped, in words, for the method line. */
static const char *stop_text(const struct gt_ab_options *o, enum gt_ab_stop stop)
{
	static char buf[96];
	switch (stop) {
	case GT_AB_STOP_PRECISE:
		return "reached";
	case GT_AB_STOP_MAX_ROUNDS:
		snprintf(buf, sizeof(buf), "not reached in --max-rounds %u", o->max_rounds);
		return buf;
	case GT_AB_STOP_MAX_SECONDS:
		snprintf(buf, sizeof(buf), "not reached in --max-seconds %g", o->max_seconds);
		return buf;
	case GT_AB_STOP_ROUNDS:
		break;
	}
	return "";
}

void gt_ab_report_text(FILE *out, const struct gt_ab_options *o, const struct gt_ab_result *res,
		       const struct gt_ab_variant_summary *s)
{
	char line[512];
	fputs("command: ", out);
	print_command(out, o->command);
	fprintf(out,
		"\nmethod: %u warm-up run%s per variant, then %u rounds; each round runs every "
		"variant once, in a random order (seed %u)\n",
		o->warmups, o->warmups == 1 ? "" : "s", res->rounds, o->seed);
	if (o->precision)
		fprintf(out,
			"        rounds %u and on until every ratio was within \u00b1%g%%: %s\n",
			o->rounds, 100 * o->precision, stop_text(o, res->stop));
	if (o->template_dir)
		fprintf(out, "        each run on a fresh copy of %s (copying not timed)\n",
			o->template_dir);
	for (size_t v = 0; v < o->nvariants; v++) {
		const struct gt_ab_variant *var = &o->variants[v];
		fprintf(out, "\n%s%s: %zu run%s", var->name, v ? "" : " (baseline)", s[v].runs_ok,
			s[v].runs_ok == 1 ? "" : "s");
		if (s[v].runs_failed)
			fprintf(out, " (%zu failed, left out)", s[v].runs_failed);
		fputc('\n', out);
		fprintf(out, "  allocator %s", var->preload ? var->preload : "system");
		for (size_t i = 0; i < var->nsettings; i++)
			fprintf(out, "%s%s=%s", i ? " " : "; git -c ", var->settings[i].key,
				var->settings[i].value);
		fputc('\n', out);
		print_metrics(out, &s[v]);
		if (!v)
			continue;
		print_paired(out, "wall", o->variants[0].name, &s[v].wall);
		print_paired(out, "cpu ", o->variants[0].name, &s[v].cpu);
		fprintf(out, "  cpu time: %s\n",
			gt_ab_verdict_format(line, sizeof(line), var->name, o->variants[0].name,
					     &s[v].cpu.verdict));
	}
	fprintf(out, "\nconclusion (wall time, paired by round, 95%% confidence):\n");
	for (size_t v = 1; v < o->nvariants; v++)
		fprintf(out, "  %s\n", gt_ab_conclusion(line, sizeof(line), o, s, v));
	if (res->failures)
		fprintf(out, "  %zu run%s failed and %s left out\n", res->failures,
			res->failures == 1 ? "" : "s", res->failures == 1 ? "is" : "are");
}
