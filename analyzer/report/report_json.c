/*
 * The --json report. Keys and meaning: docs/report.md and
 * docs/report-schema.json; a change to existing keys bumps
 * GT_REPORT_JSON_VERSION.
 */
#include "report.h"
#include "callers.h"
#include "config_origins.h"

#include "json.h"
#include "mapkind.h"
#include "report_phases.h"

static void calls(struct gt_json *j, const uint64_t *c)
{
	gt_json_begin_object(j);
	for (int f = 0; f < GT_FN_COUNT; f++) {
		if (f == GT_FN_MMAP64)
			continue; /* folded into mmap below */
		gt_json_key(j, gt_fn_names[f]);
		gt_json_uint(j, f == GT_FN_MMAP ? c[GT_FN_MMAP] + c[GT_FN_MMAP64] : c[f]);
	}
	gt_json_end_object(j);
}

/*
 * Each function that was called: its calls, the time inside them (sampled
 * calls scaled, as in every sum of time) and its failed calls; mmap64's
 * folded into mmap, as in "calls".
 */
static void functions(struct gt_json *j, const uint64_t *count, const uint64_t *ns,
		      const uint64_t *failed)
{
	gt_json_begin_object(j);
	for (int f = 0; f < GT_FN_COUNT; f++) {
		int both = f == GT_FN_MMAP;
		uint64_t n = count[f] + (both ? count[GT_FN_MMAP64] : 0);
		if (f == GT_FN_MMAP64 || !n)
			continue;
		gt_json_key(j, gt_fn_names[f]);
		gt_json_begin_object(j);
		gt_json_kv_uint(j, "calls", n);
		gt_json_kv_double(j, "seconds",
				  (double)(ns[f] + (both ? ns[GT_FN_MMAP64] : 0)) / 1e9);
		gt_json_kv_uint(j, "failed", failed[f] + (both ? failed[GT_FN_MMAP64] : 0));
		gt_json_end_object(j);
	}
	gt_json_end_object(j);
}

static void by_kind(struct gt_json *j, const struct gt_kind_stats *k)
{
	gt_json_key(j, "by_kind");
	gt_json_begin_object(j);
	for (int i = 0; i < GT_MAP_KIND_COUNT; i++) {
		gt_json_key(j, gt_map_kind_names[i]);
		gt_json_begin_object(j);
		gt_json_kv_uint(j, "mmaps", k[i].mmaps);
		gt_json_kv_uint(j, "munmaps", k[i].munmaps);
		gt_json_kv_uint(j, "mremaps", k[i].mremaps);
		gt_json_kv_uint(j, "bytes", k[i].bytes);
		gt_json_end_object(j);
	}
	gt_json_end_object(j);
}

static void prediction(struct gt_json *j, const char *remedy, const struct gt_prediction *p)
{
	gt_json_begin_object(j);
	gt_json_kv_str(j, "remedy", remedy);
	gt_json_kv_bool(j, "applies", p->applies);
	gt_json_kv_double(j, "gain", p->gain);
	gt_json_kv_double(j, "low", p->low);
	gt_json_kv_double(j, "high", p->high);
	gt_json_end_object(j);
}

/* Where the window settings come from, when looked up (--look-up-config). */
static void config_origins(struct gt_json *j, const struct gt_config_origins *c)
{
	gt_json_key(j, "config_origins");
	gt_json_begin_array(j);
	for (size_t i = 0; i < c->n; i++) {
		gt_json_begin_object(j);
		gt_json_kv_str(j, "key", c->v[i].key);
		gt_json_kv_str(j, "value", c->v[i].value);
		gt_json_kv_str(j, "scope", c->v[i].scope);
		gt_json_kv_str(j, "origin", c->v[i].origin);
		gt_json_end_object(j);
	}
	gt_json_end_array(j);
}

/* settings_inside: the tree's only (gt_summary.settings_inside); NULL for a process's. */
static void verdict(struct gt_json *j, const struct gt_verdict *v,
		    const struct gt_config_origins *config, const char *settings_inside)
{
	gt_json_begin_object(j);
	gt_json_kv_str(j, "class", gt_verdict_class_names[v->cls]);
	gt_json_kv_double(j, "class_min", GT_GAIN_CLASS_MIN);
	gt_json_key(j, "predictions");
	gt_json_begin_array(j);
	prediction(j, "default-windows", &v->window);
	prediction(j, "allocator", &v->allocator);
	gt_json_end_array(j);
	gt_json_kv_double(j, "allocator_time_share", v->allocator_share);
	gt_json_kv_double(j, "mmap_time_share", v->mmap_share);
	gt_json_kv_double(j, "window_bound", v->window_bound);
	gt_json_kv_bool(j, "window_search_unseen", v->window_search);
	gt_json_kv_bool(j, "cpus_shared", v->cpus_shared);
	gt_json_kv_bool(j, "shares_of_wall_time", v->shares_of_wall);
	gt_json_kv_str(j, "headline", v->headline);
	if (v->nreplay) { /* only with --replay: docs/replay.md */
		gt_json_key(j, "replay");
		gt_json_begin_array(j);
		for (size_t i = 0; i < v->nreplay; i++) {
			gt_json_begin_object(j);
			gt_json_kv_str(j, "allocator", v->replay[i].allocator);
			gt_json_kv_double(j, "change", v->replay[i].change);
			gt_json_kv_double(j, "low", v->replay[i].low);
			gt_json_kv_double(j, "high", v->replay[i].high);
			gt_json_end_object(j);
		}
		gt_json_end_array(j);
	}
	if (config)
		config_origins(j, config);
	if (settings_inside)
		gt_json_kv_str(j, "settings_given_inside", settings_inside);
	gt_json_key(j, "evidence");
	gt_json_strs(j, v->evidence, v->nevidence);
	gt_json_key(j, "suggestions");
	gt_json_strs(j, v->suggestions, v->nsuggestions);
	gt_json_end_object(j);
}

static void frame(struct gt_json *j, const struct gt_frame *f)
{
	gt_json_begin_object(j);
	gt_json_kv_str(j, "function", f->function);
	gt_json_kv_str_or_null(j, "file", f->file);
	gt_json_kv_int(j, "line", f->line);
	gt_json_kv_str_or_null(j, "module", f->module);
	gt_json_kv_bool(j, "in_program", f->in_program);
	gt_json_end_object(j);
}

static void uint_or_null(struct gt_json *j, const char *key, int known, uint64_t v)
{
	gt_json_key(j, key);
	if (known)
		gt_json_uint(j, v);
	else
		gt_json_null(j);
}

/* maps.window_advice (window_advice.h). */
static void window_advice(struct gt_json *j, const struct gt_window_advice *a)
{
	gt_json_key(j, "window_advice");
	gt_json_begin_object(j);
	gt_json_kv_str(j, "advice", a->raise ? "raise" : "no change");
	gt_json_kv_uint(j, "evictions_recorded", a->evictions);
	gt_json_kv_uint(j, "needed_bytes", a->needed);
	gt_json_kv_uint(j, "least_bytes", a->least);
	uint_or_null(j, "packed_git_limit_bytes", a->raise, a->limit);
	gt_json_kv_str_or_null(j, "packed_git_limit", a->raise ? a->limit_value : NULL);
	uint_or_null(j, "packed_git_window_size_bytes", a->window != 0, a->window);
	gt_json_kv_str_or_null(j, "git_config", a->raise ? a->git_config : NULL);
	gt_json_kv_bool(j, "many_windows", a->many_windows);
	/* git's LRU replayed without a limit peaked at least_bytes <= the advised limit. */
	uint_or_null(j, "evictions_predicted_at_advice", a->raise, 0);
	gt_json_kv_str(j, "assumptions", gt_window_advice_assumptions);
	gt_json_end_object(j);
}

/*
 * processes[].by_caller: the first top rows of the sites by function and
 * program's caller (callers.h), each with its first top stacks and the
 * count of all. All of them made a row of an interpreter's allocator (perl
 * runs in git's test scripts) thousands of stacks long: 900 MB of JSON for
 * a trace of one test script.
 */
static void by_caller(struct gt_json *j, const struct gt_proc *p, size_t top)
{
	gt_json_key(j, "by_caller");
	gt_json_begin_array(j);
	size_t n = top && top < p->ncallers ? top : p->ncallers;
	for (size_t i = 0; i < n; i++) {
		const struct gt_caller_row *r = &p->callers[i];
		gt_json_begin_object(j);
		gt_json_kv_str(j, "function", gt_caller_row_function(r));
		gt_json_kv_str_or_null(j, "caller", gt_caller_row_caller(r));
		gt_json_kv_uint(j, "allocations", r->allocations);
		gt_json_kv_uint(j, "bytes", r->bytes);
		gt_json_kv_uint(j, "temporary", r->temporary);
		gt_json_kv_uint(j, "stacks_total", r->stacks);
		gt_json_key(j, "stacks");
		gt_json_begin_array(j);
		/* The summary keeps no more (gt_callers_cap), but --diff's keeps all. */
		size_t nstacks = top && top < r->nsites ? top : r->nsites;
		for (size_t k = 0; k < nstacks; k++) {
			const struct gt_site *st = r->sites[k];
			gt_json_begin_object(j);
			gt_json_kv_uint(j, "allocations", st->allocations);
			gt_json_kv_uint(j, "bytes", st->bytes);
			gt_json_kv_uint(j, "temporary", st->temporary);
			gt_json_key(j, "frames");
			gt_json_begin_array(j);
			for (size_t f = 0; f < st->nframes; f++)
				frame(j, &st->frames[f]);
			gt_json_end_array(j);
			gt_json_end_object(j);
		}
		gt_json_end_array(j);
		gt_json_end_object(j);
	}
	gt_json_end_array(j);
}

static void site(struct gt_json *j, const struct gt_site *st)
{
	gt_json_begin_object(j);
	gt_json_kv_str(j, "function", st->function);
	gt_json_key(j, "frames");
	gt_json_begin_array(j);
	for (size_t i = 0; i < st->nframes; i++)
		frame(j, &st->frames[i]);
	gt_json_end_array(j);
	gt_json_key(j, "caller");
	if (st->caller < st->nframes) {
		gt_json_begin_object(j);
		gt_json_kv_uint(j, "frame", st->caller);
		gt_json_kv_str(j, "function", st->frames[st->caller].function);
		gt_json_end_object(j);
	} else {
		gt_json_null(j);
	}
	gt_json_kv_uint(j, "allocations", st->allocations);
	gt_json_kv_uint(j, "bytes", st->bytes);
	gt_json_kv_uint(j, "temporary", st->temporary);
	gt_json_kv_uint(j, "leaked_allocations", st->leaked_allocations);
	gt_json_kv_uint(j, "leaked_bytes", st->leaked_bytes);
	gt_json_kv_uint(j, "at_peak_bytes", st->at_peak_bytes);
	gt_json_end_object(j);
}

void gt_report_json_process(struct gt_json *j, const struct gt_summary *s, const struct gt_proc *p,
			    size_t top)
{
	const struct gt_image *img = p->img;
	const struct gt_heap *h = &img->heap;
	const struct gt_maps *m = &img->maps;
	char id[17];
	snprintf(id, sizeof(id), "%016llx", (unsigned long long)img->id);
	gt_json_begin_object(j);
	gt_json_kv_uint(j, "pid", img->pid);
	gt_json_kv_uint(j, "ppid", img->ppid);
	gt_json_kv_str(j, "image_id", id);
	gt_json_kv_str(j, "origin", p->origin);
	gt_json_key(j, "parent_image_id");
	snprintf(id, sizeof(id), "%016llx", (unsigned long long)img->parent_image_id);
	gt_json_str(j, id);
	gt_json_key(j, "argv");
	gt_json_strs(j, img->argv, img->argc);
	gt_json_kv_str(j, "exe", img->exe);
	gt_json_key(j, "env");
	gt_json_strs(j, img->env, img->envc);
	gt_json_kv_double(j, "wall_seconds", p->wall);
	gt_json_kv_double(j, "cpu_seconds", p->cpu);
	gt_json_kv_double(j, "tracer_seconds", p->tracer_s);
	gt_json_kv_uint(j, "capped_calls", img->capped_calls);
	gt_json_kv_double(j, "capped_seconds", (double)img->capped_ns / 1e9);
	gt_json_key(j, "involuntary_switches");
	if (img->ended)
		gt_json_uint(j, img->end.involuntary_switches);
	else
		gt_json_null(j);
	gt_json_kv_uint(j, "threads", p->threads);
	gt_json_kv_bool(j, "complete", gt_image_complete(img));
	gt_json_key(j, "exit_status");
	if (p->has_exit_status)
		gt_json_int(j, p->exit_status);
	else
		gt_json_null(j);
	gt_json_key(j, "killed_by");
	if (*p->killed_by)
		gt_json_str(j, p->killed_by);
	else
		gt_json_null(j);
	gt_json_kv_uint(j, "events", img->events);
	gt_json_kv_uint(j, "dropped_calls", img->dropped_calls);
	gt_json_kv_uint(j, "exec_failures", img->exec_failures);
	gt_json_kv_uint(j, "unknown_records", img->unknown_records);
	gt_json_kv_uint(j, "stack_depth", img->stack_depth);
	gt_json_key(j, "calls");
	calls(j, img->calls);
	gt_json_key(j, "functions");
	functions(j, img->calls, img->fn_ns, img->failed);

	gt_json_key(j, "heap");
	gt_json_begin_object(j);
	gt_json_kv_uint(j, "allocations", h->allocations);
	gt_json_kv_uint(j, "allocated_bytes", h->allocated_bytes);
	gt_json_kv_uint(j, "peak_bytes", h->peak_bytes);
	gt_json_kv_double(j, "peak_seconds", p->peak_seconds);
	gt_json_kv_uint(j, "temporary_allocations", h->temporary);
	gt_json_kv_uint(j, "leaked_allocations", h->leaked_allocations);
	gt_json_kv_uint(j, "leaked_bytes", h->leaked_bytes);
	gt_json_kv_uint(j, "untracked_frees", h->untracked_frees);
	gt_json_kv_double(j, "allocator_seconds", p->allocator_s);
	gt_json_kv_uint(j, "refaults", gt_image_heap_refaults(img));
	gt_json_key(j, "lifetime_histogram");
	gt_json_begin_array(j);
	for (int i = 0; i < GT_LIFETIME_BUCKETS; i++)
		gt_json_uint(j, h->lifetime[i]);
	gt_json_end_array(j);
	gt_json_key(j, "size_histogram");
	gt_json_begin_array(j);
	for (int i = 0; i < GT_SIZE_BUCKETS; i++)
		gt_json_uint(j, h->sizes[i]);
	gt_json_end_array(j);
	gt_json_end_object(j);

	gt_json_key(j, "maps");
	gt_json_begin_object(j);
	gt_json_kv_double(j, "mmap_seconds", p->mmap_s);
	gt_json_kv_uint(j, "peak_mapped_bytes", m->peak_mapped_bytes);
	gt_json_kv_uint(j, "remapped_regions", m->remapped_regions);
	gt_json_kv_uint(j, "failed_calls", m->failed_calls);
	gt_json_kv_uint(j, "untracked_munmaps", m->untracked_munmaps);
	by_kind(j, m->kind);
	uint_or_null(j, "inferred_window_bytes", p->window != 0, p->window);
	gt_json_kv_uint(j, "distinct_pack_regions", m->distinct_pack_regions);
	gt_json_kv_double(j, "thrash_ratio", p->thrash);
	gt_json_key(j, "window_cost");
	gt_json_begin_object(j);
	gt_json_kv_bool(j, "measured", m->usage_periods > 0);
	gt_json_kv_double(j, "again_calls_seconds", (double)m->again_calls_ns / 1e9);
	gt_json_kv_double(j, "again_faults", m->again.faults);
	gt_json_kv_double(j, "again_system_seconds",
			  gt_window_cost_system_ns(m->again.system_ns) / 1e9);
	gt_json_kv_double(j, "first_faults", m->first.faults);
	gt_json_kv_double(j, "first_system_seconds",
			  gt_window_cost_system_ns(m->first.system_ns) / 1e9);
	gt_json_end_object(j);
	gt_json_key(j, "packed_git_limit");
	gt_json_begin_object(j);
	gt_json_kv_uint(j, "evictions", m->evictions);
	gt_json_kv_uint(j, "at_least", m->limit_at_least);
	uint_or_null(j, "below", m->limit_below != UINT64_MAX, m->limit_below);
	gt_json_end_object(j);
	window_advice(j, &p->window_advice);
	gt_json_end_object(j);

	gt_json_key(j, "verdict");
	verdict(j, &p->verdict, p->config, NULL);
	gt_json_key(j, "sites");
	gt_json_begin_array(j);
	size_t n = top && top < p->nsites ? top : p->nsites;
	for (size_t i = 0; i < n; i++)
		site(j, p->sites[i]);
	gt_json_end_array(j);
	by_caller(j, p, top);
	gt_report_phases_json(j, s->phases, img);
	gt_json_end_object(j);
}

void gt_report_json(FILE *out, const struct gt_summary *s, size_t top)
{
	struct gt_json j;
	const struct gt_totals *t = &s->totals;
	gt_json_init(&j, out);
	gt_json_begin_object(&j);
	gt_json_kv_uint(&j, "gittrace_report", GT_REPORT_JSON_VERSION);
	gt_json_key(&j, "trace");
	gt_json_begin_object(&j);
	gt_json_kv_str(&j, "path", s->path);
	gt_json_kv_bool(&j, "complete", gt_model_complete(s->m));
	gt_json_kv_uint(&j, "events", gt_model_events(s->m));
	gt_json_kv_uint(&j, "blocks", gt_model_blocks(s->m));
	gt_json_kv_uint(&j, "unknown_records", gt_model_unknown_records(s->m));
	gt_json_kv_uint(&j, "untraced_execs", s->untraced_execs);
	gt_json_key(&j, "stripped_modules");
	gt_json_begin_array(&j);
	for (size_t i = 0; i < s->nstripped; i++)
		gt_json_str(&j, s->stripped[i]);
	gt_json_end_array(&j);
	gt_json_end_object(&j);

	gt_json_key(&j, "verdict");
	verdict(&j, &s->verdict, s->config, s->settings_inside);

	gt_json_key(&j, "processes");
	gt_json_begin_array(&j);
	for (size_t i = 0; i < s->n; i++)
		gt_report_json_process(&j, s, &s->procs[i], top);
	gt_json_end_array(&j);

	gt_json_key(&j, "totals");
	gt_json_begin_object(&j);
	gt_json_kv_uint(&j, "processes", s->n);
	gt_json_kv_double(&j, "cpu_seconds", t->cpu);
	gt_json_kv_double(&j, "tracer_seconds", t->tracer_s);
	gt_json_key(&j, "calls");
	calls(&j, t->calls);
	gt_json_key(&j, "functions");
	functions(&j, t->calls, t->fn_ns, t->failed);
	gt_json_key(&j, "heap");
	gt_json_begin_object(&j);
	gt_json_kv_uint(&j, "allocations", t->allocations);
	gt_json_kv_uint(&j, "allocated_bytes", t->allocated_bytes);
	gt_json_kv_uint(&j, "peak_bytes", t->peak_bytes);
	gt_json_kv_uint(&j, "temporary_allocations", t->temporary);
	gt_json_kv_uint(&j, "leaked_allocations", t->leaked_allocations);
	gt_json_kv_uint(&j, "leaked_bytes", t->leaked_bytes);
	gt_json_kv_uint(&j, "untracked_frees", t->untracked_frees);
	gt_json_kv_double(&j, "allocator_seconds", t->allocator_s);
	gt_json_end_object(&j);
	gt_json_key(&j, "maps");
	gt_json_begin_object(&j);
	gt_json_kv_double(&j, "mmap_seconds", t->mmap_s);
	gt_json_kv_uint(&j, "peak_mapped_bytes", t->peak_mapped_bytes);
	gt_json_kv_uint(&j, "remapped_regions", t->remapped_regions);
	by_kind(&j, t->kind);
	gt_json_end_object(&j);
	gt_json_end_object(&j);
	gt_json_end_object(&j);
	fputc('\n', out);
}
