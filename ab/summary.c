/* Per-variant statistics and paired ratios (see summary.h). */
#include "summary.h"
#include "die.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void summarize_metric(struct gt_ab_metric_summary *m, const double *x, size_t n)
{
	m->n = n;
	m->median = gt_ab_median(x, n);
	m->mean = gt_ab_mean(x, n);
	m->stdev = gt_ab_stdev(x, n);
	m->min = gt_ab_min(x, n);
	m->max = gt_ab_max(x, n);
}

/* The measured, successful run of variant v in round r, or NULL. */
static const struct gt_ab_run *find(const struct gt_ab_result *res, size_t v, unsigned r)
{
	for (size_t i = 0; i < res->nruns; i++)
		if (res->runs[i].round == r && res->runs[i].variant == v && !res->runs[i].failed)
			return &res->runs[i];
	return NULL;
}

static double cpu_s(const struct gt_ab_run *run)
{
	return run->s.m[GT_AB_USER] + run->s.m[GT_AB_SYS];
}

static void pair(struct gt_ab_paired *p, const struct gt_ab_result *res, size_t v, int cpu)
{
	p->rounds = res->rounds;
	p->per_round = gt_ab_xreallocarray(NULL, res->rounds, sizeof(*p->per_round));
	double *have = gt_ab_xreallocarray(NULL, res->rounds, sizeof(*have));
	size_t n = 0;
	for (unsigned r = 1; r <= res->rounds; r++) {
		const struct gt_ab_run *a = find(res, 0, r), *b = find(res, v, r);
		double ratio = NAN;
		if (a && b)
			ratio = cpu ? cpu_s(b) / cpu_s(a) : b->s.m[GT_AB_WALL] / a->s.m[GT_AB_WALL];
		p->per_round[r - 1] = ratio;
		/* A zero CPU time (a command too short for the clock's tick)
		 * has no meaningful ratio: leave the round out. */
		if (isfinite(ratio) && ratio > 0)
			have[n++] = ratio;
	}
	p->ok = gt_ab_ratio_ci(have, n, &p->ci) == 0;
	p->verdict = gt_ab_verdict_of(&p->ci, p->ok);
	free(have);
}

struct gt_ab_variant_summary *gt_ab_summarize(const struct gt_ab_options *o,
					      const struct gt_ab_result *res)
{
	struct gt_ab_variant_summary *s = gt_ab_xreallocarray(NULL, o->nvariants, sizeof(*s));
	memset(s, 0, o->nvariants * sizeof(*s));
	double *x = gt_ab_xreallocarray(NULL, res->nruns ? res->nruns : 1, sizeof(*x));
	for (size_t v = 0; v < o->nvariants; v++) {
		for (size_t i = 0; i < res->nruns; i++) {
			const struct gt_ab_run *run = &res->runs[i];
			if (run->variant == v && run->round)
				run->failed ? s[v].runs_failed++ : s[v].runs_ok++;
		}
		for (int m = 0; m < GT_AB_METRICS; m++) {
			size_t n = 0;
			for (size_t i = 0; i < res->nruns; i++) {
				const struct gt_ab_run *run = &res->runs[i];
				if (run->variant == v && run->round && !run->failed)
					x[n++] = run->s.m[m];
			}
			summarize_metric(&s[v].m[m], x, n);
		}
		if (v) {
			pair(&s[v].wall, res, v, 0);
			pair(&s[v].cpu, res, v, 1);
		}
	}
	free(x);
	return s;
}

int gt_ab_precise(const struct gt_ab_options *o, const struct gt_ab_result *res)
{
	int precise = 1;
	for (size_t v = 1; v < o->nvariants && precise; v++)
		for (int cpu = 0; cpu <= 1 && precise; cpu++) {
			struct gt_ab_paired p;
			pair(&p, res, v, cpu);
			precise = p.ok && p.ci.half_width <= o->precision;
			free(p.per_round);
		}
	return precise;
}

void gt_ab_summaries_free(struct gt_ab_variant_summary *s, size_t n)
{
	for (size_t v = 0; v < n; v++) {
		free(s[v].wall.per_round);
		free(s[v].cpu.per_round);
	}
	free(s);
}
