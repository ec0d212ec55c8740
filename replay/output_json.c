/* gittrace-replay --json (see output.h; the schema in docs/replay.md). */
#include "json.h"
#include "output.h"

static void allocator(struct gt_json *j, const char *name, const struct gt_replay_estimate *e)
{
	gt_json_begin_object(j);
	gt_json_kv_str(j, "name", name);
	gt_json_kv_double(j, "seconds", e->seconds);
	gt_json_kv_double(j, "ci_low", e->ci_low);
	gt_json_kv_double(j, "ci_high", e->ci_high);
	gt_json_kv_double(j, "ratio", e->ratio);
	gt_json_kv_uint(j, "peak_rss_bytes", e->peak_rss_bytes);
	gt_json_kv_double(j, "predicted_run_change", e->predicted_run_change);
	gt_json_end_object(j);
}

void gt_replay_print_json(FILE *out, const struct gt_replay_output *o)
{
	struct gt_json j;
	gt_json_init(&j, out);
	gt_json_begin_object(&j);
	gt_json_kv_uint(&j, "gittrace_replay", 1);
	gt_json_key(&j, "images");
	gt_json_begin_array(&j);
	for (size_t i = 0; i < o->n; i++) {
		const struct gt_replay_result *r = &o->results[i];
		gt_json_begin_object(&j);
		gt_json_kv_uint(&j, "pid", r->img->pid);
		gt_json_key(&j, "argv");
		gt_json_begin_array(&j);
		for (size_t a = 0; a < r->img->argc; a++)
			gt_json_str(&j, r->img->argv[a]);
		gt_json_end_array(&j);
		gt_json_kv_uint(&j, "calls", r->img->h.ops);
		gt_json_key(&j, "allocators");
		gt_json_begin_array(&j);
		for (size_t a = 0; a < o->nalloc; a++)
			allocator(&j, o->allocs[a].name, &r->est[a]);
		gt_json_end_array(&j);
		gt_json_end_object(&j);
	}
	gt_json_end_array(&j);
	gt_json_end_object(&j);
	fputc('\n', out);
}
