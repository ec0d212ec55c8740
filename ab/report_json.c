/* The comparison as JSON, schema "gittrace-ab/1" in docs/ab.md (see report.h). */
#include "report.h"
#include "spawn.h"

#include <math.h>
#include <sys/wait.h>

static void json_str(FILE *out, const char *s)
{
	if (!s) {
		fputs("null", out);
		return;
	}
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(out, "\\u%04x", *p);
		else
			fputc(*p, out);
	}
	fputc('"', out);
}

/* JSON has no NaN: a value that could not be computed is null. */
static void json_num(FILE *out, double x)
{
	if (isfinite(x))
		fprintf(out, "%.9g", x);
	else
		fputs("null", out);
}

/* A number member: sep_key is the separator, key and colon, e.g. ",\"n\":". */
static void json_field(FILE *out, const char *sep_key, double v)
{
	fputs(sep_key, out);
	json_num(out, v);
}

static void json_metrics(FILE *out, const struct gt_ab_variant_summary *vs)
{
	fputc('{', out);
	for (int m = 0; m < GT_AB_METRICS; m++) {
		const struct gt_ab_metric_summary *ms = &vs->m[m];
		fprintf(out, "%s\"%s\":{\"n\":%zu,\"median\":", m ? "," : "", gt_ab_metric_keys[m],
			ms->n);
		json_num(out, ms->median);
		json_field(out, ",\"mean\":", ms->mean);
		json_field(out, ",\"stdev\":", ms->stdev);
		json_field(out, ",\"min\":", ms->min);
		json_field(out, ",\"max\":", ms->max);
		fputc('}', out);
	}
	fputc('}', out);
}

static void json_verdict(FILE *out, const struct gt_ab_options *o, size_t v,
			 const struct gt_ab_paired *p)
{
	char text[512];
	fputs("{\"kind\":", out);
	json_str(out, gt_ab_verdict_kind_name(p->verdict.kind));
	json_field(out, ",\"factor\":", p->verdict.factor);
	json_field(out, ",\"factor_low\":", p->verdict.factor_low);
	json_field(out, ",\"factor_high\":", p->verdict.factor_high);
	json_field(out, ",\"noise_pct\":", p->verdict.noise_pct);
	fputs(",\"text\":", out);
	json_str(out, gt_ab_verdict_format(text, sizeof(text), o->variants[v].name,
					   o->variants[0].name, &p->verdict));
	fputc('}', out);
}

static void json_paired(FILE *out, const struct gt_ab_options *o, size_t v,
			const struct gt_ab_paired *p)
{
	fputs("{\"per_round\":[", out);
	for (size_t r = 0; r < p->rounds; r++) {
		if (r)
			fputc(',', out);
		json_num(out, p->per_round[r]);
	}
	fprintf(out, "],\"n\":%zu,\"df\":%u,\"t\":", p->ci.n, p->ci.df);
	json_num(out, p->ci.t);
	json_field(out, ",\"geomean\":", p->ci.geomean);
	json_field(out, ",\"ci_low\":", p->ci.low);
	json_field(out, ",\"ci_high\":", p->ci.high);
	json_field(out, ",\"half_width\":", p->ci.half_width);
	fputs(",\"verdict\":", out);
	json_verdict(out, o, v, p);
	fputc('}', out);
}

static void json_variant(FILE *out, const struct gt_ab_options *o,
			 const struct gt_ab_variant_summary *s, size_t v)
{
	const struct gt_ab_variant *var = &o->variants[v];
	fputs("{\"name\":", out);
	json_str(out, var->name);
	fputs(",\"alloc\":", out);
	json_str(out, var->alloc);
	fputs(",\"preload\":", out);
	json_str(out, var->preload);
	fputs(",\"settings\":[", out);
	for (size_t i = 0; i < var->nsettings; i++) {
		fputs(i ? ",{\"key\":" : "{\"key\":", out);
		json_str(out, var->settings[i].key);
		fputs(",\"value\":", out);
		json_str(out, var->settings[i].value);
		fputc('}', out);
	}
	fprintf(out, "],\"runs_ok\":%zu,\"runs_failed\":%zu,\"metrics\":", s[v].runs_ok,
		s[v].runs_failed);
	json_metrics(out, &s[v]);
	if (v) {
		fputs(",\"wall_ratio\":", out);
		json_paired(out, o, v, &s[v].wall);
		fputs(",\"cpu_ratio\":", out);
		json_paired(out, o, v, &s[v].cpu);
		char line[512];
		fputs(",\"conclusion\":", out);
		json_str(out, gt_ab_conclusion(line, sizeof(line), o, s, v));
	} else {
		fputs(",\"wall_ratio\":null,\"cpu_ratio\":null,\"conclusion\":null", out);
	}
	fputc('}', out);
}

static void json_run(FILE *out, const struct gt_ab_options *o, const struct gt_ab_run *run)
{
	int st = run->s.status;
	fprintf(out, "{\"round\":%u,\"variant\":", run->round);
	json_str(out, o->variants[run->variant].name);
	fprintf(out, ",\"failed\":%s,\"exit_status\":", run->failed ? "true" : "false");
	if (WIFEXITED(st))
		fprintf(out, "%d", WEXITSTATUS(st));
	else
		fputs("null", out);
	fputs(",\"signal\":", out);
	if (WIFSIGNALED(st))
		fprintf(out, "%d", WTERMSIG(st));
	else
		fputs("null", out);
	for (int m = 0; m < GT_AB_METRICS; m++) {
		fprintf(out, ",\"%s\":", gt_ab_metric_keys[m]);
		json_num(out, run->s.m[m]);
	}
	fputc('}', out);
}

void gt_ab_report_json(FILE *out, const struct gt_ab_options *o, const struct gt_ab_result *res,
		       const struct gt_ab_variant_summary *s)
{
	fputs("{\"schema\":\"gittrace-ab/1\",\"command\":[", out);
	for (char **a = o->command; *a; a++) {
		if (a != o->command)
			fputc(',', out);
		json_str(out, *a);
	}
	fputs("],\"template\":", out);
	json_str(out, o->template_dir);
	fprintf(out, ",\"rounds\":%u,\"min_rounds\":%u,\"max_rounds\":%u", res->rounds, o->rounds,
		o->max_rounds);
	json_field(out, ",\"precision\":", o->precision ? o->precision : NAN);
	json_field(out, ",\"max_seconds\":", o->max_seconds ? o->max_seconds : NAN);
	fputs(",\"stopped\":", out);
	json_str(out, gt_ab_stop_name(res->stop));
	fprintf(out, ",\"warmups\":%u,\"seed\":%u,\"baseline\":", o->warmups, o->seed);
	json_str(out, o->variants[0].name);
	fprintf(out, ",\"failures\":%zu,\"exit_code\":%d,\"variants\":[\n", res->failures,
		res->exit_code);
	for (size_t v = 0; v < o->nvariants; v++) {
		json_variant(out, o, s, v);
		fputs(v + 1 < o->nvariants ? ",\n" : "\n", out);
	}
	fputs("],\"runs\":[\n", out);
	for (size_t i = 0; i < res->nruns; i++) {
		json_run(out, o, &res->runs[i]);
		fputs(i + 1 < res->nruns ? ",\n" : "\n", out);
	}
	fputs("]}\n", out);
}
