/*
 * --diff's writers (diff.h): per matched process the numbers of both
 * traces and their change, then the sites whose allocations changed most.
 * JSON: {"gittrace_diff": 1, "processes": [...], "sites": [...]}, where
 * "base" and "new" are the report's own process objects (report.h).
 */
#include "diff.h"

#include <inttypes.h>

#include "die.h"
#include "json.h"
#include "mapkind.h"
#include "report.h"
#include "site_labels.h"

#define GT_DIFF_JSON_VERSION 1

static const struct gt_proc *either(const struct gt_diff_proc *dp)
{
	return dp->base ? dp->base : dp->new;
}

static void text_command(FILE *out, const struct gt_image *img)
{
	for (size_t i = 0; i < img->argc; i++)
		fprintf(out, "%s%s", i ? " " : "", img->argv[i]);
}

static void text_count(FILE *out, const char *what, uint64_t a, uint64_t b)
{
	fprintf(out, "  %-22s %14" PRIu64 " %14" PRIu64 " %+15" PRId64, what, a, b,
		(int64_t)(b - a));
	if (a)
		fprintf(out, " (%+.1f%%)", 100.0 * ((double)b - (double)a) / (double)a);
	fputc('\n', out);
}

static void text_process(FILE *out, const struct gt_diff_proc *dp)
{
	fprintf(out, "\n== ");
	text_command(out, either(dp)->img);
	fprintf(out, " ==\n");
	if (!dp->base || !dp->new) {
		fprintf(out, "  only in %s\n", dp->base ? "BASE" : "NEW");
		return;
	}
	struct gt_diff_numbers a, b;
	gt_diff_numbers_of(dp->base, &a);
	gt_diff_numbers_of(dp->new, &b);
	fprintf(out, "  %-22s %14s %14s %15s\n", "", "base", "new", "change");
	fprintf(out, "  %-22s %14s %14s\n", "class", gt_verdict_class_names[dp->base->verdict.cls],
		gt_verdict_class_names[dp->new->verdict.cls]);
	text_count(out, "calls", a.calls, b.calls);
	text_count(out, "allocations", a.allocations, b.allocations);
	text_count(out, "temporary", a.temporary, b.temporary);
	text_count(out, "allocated bytes", a.allocated_bytes, b.allocated_bytes);
	text_count(out, "peak bytes", a.peak_bytes, b.peak_bytes);
	fprintf(out, "  %-22s %13.1f%% %13.1f%% %+12.1f pts\n", "allocator time share",
		100 * a.allocator_share, 100 * b.allocator_share,
		100 * (b.allocator_share - a.allocator_share));
	for (int k = 0; k < GT_MAP_KIND_COUNT; k++) {
		char what[64];
		if (!a.maps[k].mmaps && !b.maps[k].mmaps && !a.maps[k].munmaps &&
		    !b.maps[k].munmaps)
			continue;
		snprintf(what, sizeof(what), "%s mmaps", gt_map_kind_names[k]);
		text_count(out, what, a.maps[k].mmaps, b.maps[k].mmaps);
		snprintf(what, sizeof(what), "%s munmaps", gt_map_kind_names[k]);
		text_count(out, what, a.maps[k].munmaps, b.maps[k].munmaps);
	}
}

void gt_report_diff_text(FILE *out, const struct gt_diff *d, size_t top)
{
	size_t matched = 0;
	for (size_t i = 0; i < d->nprocs; i++)
		matched += d->procs[i].base && d->procs[i].new;
	fprintf(out, "gittrace-report --diff: BASE %s, NEW %s\n", d->base->path, d->new->path);
	fprintf(out, "%zu process%s matched, %zu only in BASE, %zu only in NEW\n", matched,
		matched == 1 ? "" : "es", d->base->n - matched, d->new->n - matched);
	for (size_t i = 0; i < d->nprocs; i++)
		text_process(out, &d->procs[i]);
	size_t n = top && top < d->nsites ? top : d->nsites;
	fprintf(out, "\nSites whose allocations changed most (all processes)\n");
	fprintf(out, "  %10s %10s %11s  %s\n", "base", "new", "change",
		"function [← program's caller] [← … ← where it parts]");
	/* Sites differ by their whole stack: labelled as the report's tables
	 * label them (site_labels.h), rows of one function read apart. */
	const struct gt_site **rows = gt_xcalloc(n ? n : 1, sizeof(*rows));
	struct gt_site_label *labels = gt_xcalloc(n ? n : 1, sizeof(*labels));
	for (size_t i = 0; i < n; i++)
		rows[i] = d->sites[i]->site;
	gt_site_labels(rows, n, labels);
	for (size_t i = 0; i < n; i++) {
		const struct gt_diff_site *s = d->sites[i];
		fprintf(out, "  %10" PRIu64 " %10" PRIu64 " %+11" PRId64 " ", s->base.allocations,
			s->new.allocations, (int64_t)(s->new.allocations - s->base.allocations));
		const struct gt_site_label *l = &labels[i];
		if (!l->n)
			fprintf(out, " %s", s->site->function);
		for (size_t k = 0; k < l->n; k++)
			fprintf(out, " %s%s%s", k ? "← " : "",
				gt_site_label_skips(s->site, l, k) ? "… ← " : "",
				s->site->frames[l->at[k]].function);
		fputc('\n', out);
	}
	free(labels);
	free(rows);
}

static void json_totals(struct gt_json *j, const char *key, const struct gt_site_totals *t)
{
	gt_json_key(j, key);
	gt_json_begin_object(j);
	gt_json_kv_uint(j, "allocations", t->allocations);
	gt_json_kv_uint(j, "bytes", t->bytes);
	gt_json_kv_uint(j, "temporary", t->temporary);
	gt_json_end_object(j);
}

static void json_site(struct gt_json *j, const struct gt_diff_site *s)
{
	gt_json_begin_object(j);
	gt_json_kv_str(j, "function", s->site->function);
	gt_json_key(j, "frames");
	gt_json_begin_array(j);
	for (size_t i = 0; i < s->site->nframes; i++)
		gt_json_str(j, s->site->frames[i].function);
	gt_json_end_array(j);
	json_totals(j, "base", &s->base);
	json_totals(j, "new", &s->new);
	gt_json_key(j, "delta");
	gt_json_begin_object(j);
	gt_json_kv_int(j, "allocations", (int64_t)(s->new.allocations - s->base.allocations));
	gt_json_kv_int(j, "bytes", (int64_t)(s->new.bytes - s->base.bytes));
	gt_json_kv_int(j, "temporary", (int64_t)(s->new.temporary - s->base.temporary));
	gt_json_end_object(j);
	gt_json_end_object(j);
}

static void json_delta(struct gt_json *j, const struct gt_diff_proc *dp)
{
	struct gt_diff_numbers a, b;
	gt_diff_numbers_of(dp->base, &a);
	gt_diff_numbers_of(dp->new, &b);
	gt_json_begin_object(j);
	gt_json_kv_int(j, "calls", (int64_t)(b.calls - a.calls));
	gt_json_kv_int(j, "allocations", (int64_t)(b.allocations - a.allocations));
	gt_json_kv_int(j, "temporary", (int64_t)(b.temporary - a.temporary));
	gt_json_kv_int(j, "allocated_bytes", (int64_t)(b.allocated_bytes - a.allocated_bytes));
	gt_json_kv_int(j, "peak_bytes", (int64_t)(b.peak_bytes - a.peak_bytes));
	gt_json_kv_double(j, "allocator_share", b.allocator_share - a.allocator_share);
	gt_json_key(j, "maps");
	gt_json_begin_object(j);
	for (int k = 0; k < GT_MAP_KIND_COUNT; k++) {
		gt_json_key(j, gt_map_kind_names[k]);
		gt_json_begin_object(j);
		gt_json_kv_int(j, "mmaps", (int64_t)(b.maps[k].mmaps - a.maps[k].mmaps));
		gt_json_kv_int(j, "munmaps", (int64_t)(b.maps[k].munmaps - a.maps[k].munmaps));
		gt_json_end_object(j);
	}
	gt_json_end_object(j);
	gt_json_end_object(j);
}

static void json_process(struct gt_json *j, const struct gt_diff *d, const struct gt_diff_proc *dp,
			 size_t top)
{
	const struct gt_image *img = either(dp)->img;
	gt_json_begin_object(j);
	gt_json_key(j, "argv");
	gt_json_strs(j, img->argv, img->argc);
	gt_json_key(j, "base");
	if (dp->base)
		gt_report_json_process(j, d->base, dp->base, top);
	else
		gt_json_null(j);
	gt_json_key(j, "new");
	if (dp->new)
		gt_report_json_process(j, d->new, dp->new, top);
	else
		gt_json_null(j);
	gt_json_key(j, "delta");
	if (dp->base && dp->new)
		json_delta(j, dp);
	else
		gt_json_null(j);
	gt_json_key(j, "class");
	gt_json_begin_array(j);
	if (dp->base)
		gt_json_str(j, gt_verdict_class_names[dp->base->verdict.cls]);
	else
		gt_json_null(j);
	if (dp->new)
		gt_json_str(j, gt_verdict_class_names[dp->new->verdict.cls]);
	else
		gt_json_null(j);
	gt_json_end_array(j);
	gt_json_end_object(j);
}

void gt_report_diff_json(FILE *out, const struct gt_diff *d, size_t top)
{
	struct gt_json j;
	gt_json_init(&j, out);
	gt_json_begin_object(&j);
	gt_json_kv_uint(&j, "gittrace_diff", GT_DIFF_JSON_VERSION);
	gt_json_key(&j, "processes");
	gt_json_begin_array(&j);
	for (size_t i = 0; i < d->nprocs; i++)
		json_process(&j, d, &d->procs[i], top);
	gt_json_end_array(&j);
	gt_json_key(&j, "sites");
	gt_json_begin_array(&j);
	size_t n = top && top < d->nsites ? top : d->nsites;
	for (size_t i = 0; i < n; i++)
		json_site(&j, d->sites[i]);
	gt_json_end_array(&j);
	gt_json_end_object(&j);
	fputc('\n', out);
}
