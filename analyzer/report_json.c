/*
 * The --json report. Keys and meaning: docs/report.md and
 * docs/report-schema.json; a change to existing keys bumps
 * GT_REPORT_JSON_VERSION.
 */
#include "report.h"

#include "json.h"
#include "mapkind.h"

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

static void by_kind(struct gt_json *j, const struct gt_kind_stats *k)
{
	gt_json_key(j, "by_kind");
	gt_json_begin_object(j);
	for (int i = 0; i < GT_MAP_KIND_COUNT; i++) {
		gt_json_key(j, gt_map_kind_names[i]);
		gt_json_begin_object(j);
		gt_json_key(j, "mmaps");
		gt_json_uint(j, k[i].mmaps);
		gt_json_key(j, "munmaps");
		gt_json_uint(j, k[i].munmaps);
		gt_json_key(j, "mremaps");
		gt_json_uint(j, k[i].mremaps);
		gt_json_key(j, "bytes");
		gt_json_uint(j, k[i].bytes);
		gt_json_end_object(j);
	}
	gt_json_end_object(j);
}

static void strings(struct gt_json *j, char *const *v, size_t n)
{
	gt_json_begin_array(j);
	for (size_t i = 0; i < n; i++)
		gt_json_str(j, v[i]);
	gt_json_end_array(j);
}

static void verdict(struct gt_json *j, const struct gt_verdict *v)
{
	gt_json_begin_object(j);
	gt_json_key(j, "class");
	gt_json_str(j, gt_verdict_class_names[v->cls]);
	gt_json_key(j, "allocator_time_share");
	gt_json_double(j, v->allocator_share);
	gt_json_key(j, "mmap_time_share");
	gt_json_double(j, v->mmap_share);
	gt_json_key(j, "shares_of_wall_time");
	gt_json_bool(j, v->shares_of_wall);
	gt_json_key(j, "headline");
	gt_json_str(j, v->headline);
	gt_json_key(j, "evidence");
	strings(j, v->evidence, v->nevidence);
	gt_json_key(j, "suggestions");
	strings(j, v->suggestions, v->nsuggestions);
	gt_json_end_object(j);
}

static void site(struct gt_json *j, const struct gt_site *st)
{
	gt_json_begin_object(j);
	gt_json_key(j, "function");
	gt_json_str(j, st->function);
	gt_json_key(j, "frames");
	gt_json_begin_array(j);
	for (size_t i = 0; i < st->nframes; i++) {
		const struct gt_frame *f = &st->frames[i];
		gt_json_begin_object(j);
		gt_json_key(j, "function");
		gt_json_str(j, f->function);
		gt_json_key(j, "file");
		if (f->file)
			gt_json_str(j, f->file);
		else
			gt_json_null(j);
		gt_json_key(j, "line");
		gt_json_int(j, f->line);
		gt_json_key(j, "module");
		if (f->module)
			gt_json_str(j, f->module);
		else
			gt_json_null(j);
		gt_json_end_object(j);
	}
	gt_json_end_array(j);
	gt_json_key(j, "allocations");
	gt_json_uint(j, st->allocations);
	gt_json_key(j, "bytes");
	gt_json_uint(j, st->bytes);
	gt_json_key(j, "temporary");
	gt_json_uint(j, st->temporary);
	gt_json_key(j, "leaked_allocations");
	gt_json_uint(j, st->leaked_allocations);
	gt_json_key(j, "leaked_bytes");
	gt_json_uint(j, st->leaked_bytes);
	gt_json_end_object(j);
}

static const char *origin(uint64_t o)
{
	return o == GT_ORIGIN_FORK ? "fork" : o == GT_ORIGIN_EXEC ? "exec" : "root";
}

static void process(struct gt_json *j, const struct gt_proc *p, size_t top)
{
	const struct gt_image *img = p->img;
	const struct gt_heap *h = &img->heap;
	const struct gt_maps *m = &img->maps;
	char id[17];
	snprintf(id, sizeof(id), "%016llx", (unsigned long long)img->id);
	gt_json_begin_object(j);
	gt_json_key(j, "pid");
	gt_json_uint(j, img->pid);
	gt_json_key(j, "ppid");
	gt_json_uint(j, img->ppid);
	gt_json_key(j, "image_id");
	gt_json_str(j, id);
	gt_json_key(j, "origin");
	gt_json_str(j, origin(img->origin));
	gt_json_key(j, "parent_image_id");
	snprintf(id, sizeof(id), "%016llx", (unsigned long long)img->parent_image_id);
	gt_json_str(j, id);
	gt_json_key(j, "argv");
	strings(j, img->argv, img->argc);
	gt_json_key(j, "exe");
	gt_json_str(j, img->exe);
	gt_json_key(j, "env");
	strings(j, img->env, img->envc);
	gt_json_key(j, "wall_seconds");
	gt_json_double(j, p->wall);
	gt_json_key(j, "cpu_seconds");
	gt_json_double(j, p->cpu);
	gt_json_key(j, "tracer_seconds");
	gt_json_double(j, p->tracer_s);
	gt_json_key(j, "threads");
	gt_json_uint(j, img->ended && img->end.threads ? img->end.threads
						       : (uint64_t)HASH_COUNT(img->threads));
	gt_json_key(j, "complete");
	gt_json_bool(j, gt_image_complete(img));
	gt_json_key(j, "exit_status");
	/* -1: exit status unknown (the program returned from main). */
	if (img->ended && img->end.reason != GT_END_EXEC && img->end.status >= 0)
		gt_json_int(j, img->end.status);
	else
		gt_json_null(j);
	gt_json_key(j, "events");
	gt_json_uint(j, img->events);
	gt_json_key(j, "dropped_calls");
	gt_json_uint(j, img->dropped_calls);
	gt_json_key(j, "exec_failures");
	gt_json_uint(j, img->exec_failures);
	gt_json_key(j, "unknown_records");
	gt_json_uint(j, img->unknown_records);
	gt_json_key(j, "stack_depth");
	gt_json_uint(j, img->stack_depth);
	gt_json_key(j, "calls");
	calls(j, img->calls);

	gt_json_key(j, "heap");
	gt_json_begin_object(j);
	gt_json_key(j, "allocations");
	gt_json_uint(j, h->allocations);
	gt_json_key(j, "allocated_bytes");
	gt_json_uint(j, h->allocated_bytes);
	gt_json_key(j, "peak_bytes");
	gt_json_uint(j, h->peak_bytes);
	gt_json_key(j, "peak_seconds");
	gt_json_double(j, h->peak_ns > img->start_mono_ns && img->has_info
				  ? (double)(h->peak_ns - img->start_mono_ns) / 1e9
				  : 0);
	gt_json_key(j, "temporary_allocations");
	gt_json_uint(j, h->temporary);
	gt_json_key(j, "leaked_allocations");
	gt_json_uint(j, h->leaked_allocations);
	gt_json_key(j, "leaked_bytes");
	gt_json_uint(j, h->leaked_bytes);
	gt_json_key(j, "untracked_frees");
	gt_json_uint(j, h->untracked_frees);
	gt_json_key(j, "allocator_seconds");
	gt_json_double(j, p->allocator_s);
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
	gt_json_key(j, "mmap_seconds");
	gt_json_double(j, p->mmap_s);
	gt_json_key(j, "peak_mapped_bytes");
	gt_json_uint(j, m->peak_mapped_bytes);
	gt_json_key(j, "remapped_regions");
	gt_json_uint(j, m->remapped_regions);
	gt_json_key(j, "failed_calls");
	gt_json_uint(j, m->failed_calls);
	gt_json_key(j, "untracked_munmaps");
	gt_json_uint(j, m->untracked_munmaps);
	by_kind(j, m->kind);
	gt_json_key(j, "inferred_window_bytes");
	if (p->window)
		gt_json_uint(j, p->window);
	else
		gt_json_null(j);
	gt_json_key(j, "distinct_pack_regions");
	gt_json_uint(j, m->distinct_pack_regions);
	gt_json_key(j, "thrash_ratio");
	gt_json_double(j, p->thrash);
	gt_json_key(j, "packed_git_limit");
	gt_json_begin_object(j);
	gt_json_key(j, "evictions");
	gt_json_uint(j, m->evictions);
	gt_json_key(j, "at_least");
	gt_json_uint(j, m->limit_at_least);
	gt_json_key(j, "below");
	if (m->limit_below != UINT64_MAX)
		gt_json_uint(j, m->limit_below);
	else
		gt_json_null(j);
	gt_json_end_object(j);
	gt_json_end_object(j);

	gt_json_key(j, "verdict");
	verdict(j, &p->verdict);
	gt_json_key(j, "sites");
	gt_json_begin_array(j);
	size_t n = top && top < p->nsites ? top : p->nsites;
	for (size_t i = 0; i < n; i++)
		site(j, p->sites[i]);
	gt_json_end_array(j);
	gt_json_end_object(j);
}

void gt_report_json(FILE *out, const struct gt_summary *s, size_t top)
{
	struct gt_json j;
	const struct gt_totals *t = &s->totals;
	gt_json_init(&j, out);
	gt_json_begin_object(&j);
	gt_json_key(&j, "gittrace_report");
	gt_json_uint(&j, GT_REPORT_JSON_VERSION);
	gt_json_key(&j, "trace");
	gt_json_begin_object(&j);
	gt_json_key(&j, "path");
	gt_json_str(&j, s->path);
	gt_json_key(&j, "complete");
	gt_json_bool(&j, gt_model_complete(s->m));
	gt_json_key(&j, "events");
	gt_json_uint(&j, gt_model_events(s->m));
	gt_json_key(&j, "blocks");
	gt_json_uint(&j, gt_model_blocks(s->m));
	gt_json_key(&j, "unknown_records");
	gt_json_uint(&j, gt_model_unknown_records(s->m));
	gt_json_key(&j, "stripped_modules");
	gt_json_begin_array(&j);
	for (size_t i = 0; i < s->nstripped; i++)
		gt_json_str(&j, s->stripped[i]);
	gt_json_end_array(&j);
	gt_json_end_object(&j);

	gt_json_key(&j, "verdict");
	verdict(&j, &s->verdict);

	gt_json_key(&j, "processes");
	gt_json_begin_array(&j);
	for (size_t i = 0; i < s->n; i++)
		process(&j, &s->procs[i], top);
	gt_json_end_array(&j);

	gt_json_key(&j, "totals");
	gt_json_begin_object(&j);
	gt_json_key(&j, "processes");
	gt_json_uint(&j, s->n);
	gt_json_key(&j, "cpu_seconds");
	gt_json_double(&j, t->cpu);
	gt_json_key(&j, "tracer_seconds");
	gt_json_double(&j, t->tracer_s);
	gt_json_key(&j, "calls");
	calls(&j, t->calls);
	gt_json_key(&j, "heap");
	gt_json_begin_object(&j);
	gt_json_key(&j, "allocations");
	gt_json_uint(&j, t->allocations);
	gt_json_key(&j, "allocated_bytes");
	gt_json_uint(&j, t->allocated_bytes);
	gt_json_key(&j, "peak_bytes");
	gt_json_uint(&j, t->peak_bytes);
	gt_json_key(&j, "temporary_allocations");
	gt_json_uint(&j, t->temporary);
	gt_json_key(&j, "leaked_allocations");
	gt_json_uint(&j, t->leaked_allocations);
	gt_json_key(&j, "leaked_bytes");
	gt_json_uint(&j, t->leaked_bytes);
	gt_json_key(&j, "untracked_frees");
	gt_json_uint(&j, t->untracked_frees);
	gt_json_key(&j, "allocator_seconds");
	gt_json_double(&j, t->allocator_s);
	gt_json_end_object(&j);
	gt_json_key(&j, "maps");
	gt_json_begin_object(&j);
	gt_json_key(&j, "mmap_seconds");
	gt_json_double(&j, t->mmap_s);
	gt_json_key(&j, "peak_mapped_bytes");
	gt_json_uint(&j, t->peak_mapped_bytes);
	gt_json_key(&j, "remapped_regions");
	gt_json_uint(&j, t->remapped_regions);
	by_kind(&j, t->kind);
	gt_json_end_object(&j);
	gt_json_end_object(&j);
	gt_json_end_object(&j);
	fputc('\n', out);
}
