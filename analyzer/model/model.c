/*
 * Builds the model from records. See model.h.
 */
#include "model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "die.h"
#include "mapkind.h"
#include "ptrmap.h"

struct path_entry {
	char *path; /* key */
	uint32_t id;
	UT_hash_handle hh;
};

struct gt_model {
	struct gt_image *images; /* uthash by id */
	struct gt_image **order;
	size_t n, cap;
	struct path_entry *paths;
	size_t npaths;
	uint64_t events, unknown_records, blocks;
	int torn, missing;
	gt_retire_hook *retire;
	void *retire_ctx;
	/* Ended images waiting to be retired, oldest first (a ring). */
	struct gt_image **ended;
	size_t ended_head, nended, ended_cap;
	int no_timelines; /* gt_model_no_timelines */
};

struct gt_model *gt_model_new(void)
{
	return gt_xcalloc(1, sizeof(struct gt_model));
}

void gt_model_no_timelines(struct gt_model *m)
{
	m->no_timelines = 1;
}

void gt_model_on_retire(struct gt_model *m, gt_retire_hook *retire, void *ctx)
{
	m->retire = retire;
	m->retire_ctx = ctx;
}

static uint32_t intern_path(struct gt_model *m, const struct gt_str *s)
{
	struct path_entry *e;
	HASH_FIND(hh, m->paths, s->p, s->len, e);
	if (e)
		return e->id;
	e = gt_xcalloc(1, sizeof(*e));
	e->path = gt_xstrndup(s->p, s->len);
	e->id = (uint32_t)m->npaths;
	m->npaths++;
	HASH_ADD_KEYPTR(hh, m->paths, e->path, s->len, e);
	return e->id;
}

static struct gt_image *image_for(struct gt_model *m, const struct gt_block *b)
{
	struct gt_image *img;
	uint64_t id = b->h.image_id;
	HASH_FIND(hh, m->images, &id, sizeof(id), img);
	if (img)
		return img;
	img = gt_xcalloc(1, sizeof(*img));
	img->id = id;
	img->pid = b->h.pid;
	img->page_size = 4096;
	img->pointer_bits = 64;
	img->timed_one_in = GT_TIMED_ONE_IN; /* until its IMAGE says */
	gt_heap_init(&img->heap);
	gt_maps_init(&img->maps);
	gt_timeline_init(&img->timeline);
	img->order = m->n;
	HASH_ADD(hh, m->images, id, sizeof(img->id), img);
	if (m->n == m->cap) {
		m->cap = m->cap ? 2 * m->cap : 16;
		m->order = gt_xrealloc(m->order, m->cap * sizeof(*m->order));
	}
	m->order[m->n++] = img;
	return img;
}

static char **copy_strs(const struct gt_str *v, size_t n)
{
	char **out = gt_xcalloc(n, sizeof(*out));
	for (size_t i = 0; i < n; i++)
		out[i] = gt_xstrndup(v[i].p, v[i].len);
	return out;
}

static void free_strs(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static void apply_image(struct gt_image *img, const struct gt_rec_image *r)
{
	free(img->exe);
	free(img->cwd);
	free_strs(img->argv, img->argc);
	free_strs(img->env, img->envc);
	img->has_info = 1;
	img->ppid = r->ppid;
	img->start_realtime_ns = r->start_realtime_ns;
	img->start_mono_ns = r->start_mono_ns;
	img->origin = r->origin;
	img->parent_image_id = r->parent_image_id;
	img->pointer_bits = r->pointer_bits;
	img->page_size = r->page_size;
	img->stack_depth = r->stack_depth;
	img->clock_overhead_ns = r->clock_overhead_ns;
	img->timed_one_in = r->timed_one_in ? r->timed_one_in : 1;
	img->page_cycle_ns = r->page_cycle_ns;
	img->exe = gt_xstrndup(r->exe.p, r->exe.len);
	img->cwd = gt_xstrndup(r->cwd.p, r->cwd.len);
	img->argc = r->argc;
	img->argv = copy_strs(r->argv, r->argc);
	img->envc = r->envc;
	img->env = copy_strs(r->env, r->envc);
}

static void free_modules(struct gt_image *img)
{
	for (size_t i = 0; i < img->nmods; i++) {
		free(img->mods[i].path);
		free(img->mods[i].build_id);
	}
	free(img->mods);
	img->mods = NULL;
	img->nmods = img->mods_cap = 0;
}

/* Appends img to the ring of ended images, waiting from block ended_block. */
static void push_ended(struct gt_model *m, struct gt_image *img)
{
	if (m->nended == m->ended_cap) {
		size_t cap = m->ended_cap ? 2 * m->ended_cap : 64;
		struct gt_image **v = gt_xcalloc(cap, sizeof(*v));
		for (size_t i = 0; i < m->nended; i++)
			v[i] = m->ended[(m->ended_head + i) % m->ended_cap];
		free(m->ended);
		m->ended = v;
		m->ended_cap = cap;
		m->ended_head = 0;
	}
	m->ended[(m->ended_head + m->nended++) % m->ended_cap] = img;
	img->queued = 1;
	img->queued_block = img->ended_block;
}

static void queue_ended(struct gt_model *m, struct gt_image *img)
{
	if (!m->retire || img->retired)
		return;
	img->ended_block = m->blocks;
	if (img->queued)
		return; /* ended again after a failed exec: it waits from now */
	push_ended(m, img);
}

/* Ends an image's accounting: what was still live is leaked. Once. */
static void finish_image(struct gt_image *img)
{
	if (img->finished)
		return;
	img->finished = 1;
	if (!img->has_info)
		img->missing_blocks = 1;
	gt_heap_finish(&img->heap);
	gt_maps_finish(&img->maps);
}

static void free_stacks(struct gt_image *img)
{
	struct gt_stack *s, *st;
	HASH_ITER(hh, img->stacks, s, st)
	{
		HASH_DEL(img->stacks, s);
		free(s->ips);
		free(s);
	}
}

/*
 * Hands a finished image to the retire hook, then forgets what only the
 * hook needed: stacks, modules, live blocks and mappings. The image's
 * counters and timeline stay for the reports.
 */
static void retire(struct gt_model *m, struct gt_image *img)
{
	finish_image(img);
	m->retire(m->retire_ctx, img);
	img->retired = 1;
	free_stacks(img);
	free_modules(img);
	gt_heap_forget(&img->heap);
	gt_maps_forget(&img->maps);
}

/*
 * Retires the images whose last block (at or after their END) came
 * GT_RETIRE_AFTER_BLOCKS blocks ago, and that stayed ended. One that wrote
 * blocks while it waited goes to the back of the ring: it may retire later
 * than it could, never early.
 */
static void retire_due(struct gt_model *m)
{
	while (m->nended) {
		struct gt_image *img = m->ended[m->ended_head];
		if (img->ended_block + GT_RETIRE_AFTER_BLOCKS > m->blocks &&
		    img->ended_block == img->queued_block)
			break;
		m->ended_head = (m->ended_head + 1) % m->ended_cap;
		m->nended--;
		img->queued = 0;
		if (img->ended_block + GT_RETIRE_AFTER_BLOCKS > m->blocks)
			push_ended(m, img);
		else if (img->ended && !img->retired)
			retire(m, img);
	}
}

/* A module's end, saturated: a crafted size may run past the address space. */
static uint64_t module_end(uint64_t base, uint64_t size)
{
	return base + size < base ? UINT64_MAX : base + size;
}

/*
 * Adds one module, replacing any of the image's modules its range
 * overlaps (format.h: the map is rewritten after every dlopen). A relative
 * path is joined with the image's cwd, as symbols.h requires.
 *
 * The modules are kept sorted by base and never overlap, so their ends are
 * sorted too, and the ones a new module overlaps are one run of them:
 * found by two binary searches, not a pass over all (a trace may carry
 * every module again after each of thousands of dlopens). A module of
 * size 0 holds no address: it is not kept, so that no lookup lands on it.
 */
static void apply_module(struct gt_image *img, const struct gt_rec_module *r)
{
	if (r->size == 0)
		return;
	uint64_t end = module_end(r->base, r->size);
	/*
	 * first: the first module that ends past r's base; last: the first
	 * that starts at or past r's end. [first, last) overlap r.
	 */
	size_t first = 0, hi = img->nmods;
	while (first < hi) {
		size_t mid = first + (hi - first) / 2;
		if (module_end(img->mods[mid].base, img->mods[mid].size) <= r->base)
			first = mid + 1;
		else
			hi = mid;
	}
	size_t last = first;
	hi = img->nmods;
	while (last < hi) {
		size_t mid = last + (hi - last) / 2;
		if (img->mods[mid].base < end)
			last = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = first; i < last; i++) {
		free(img->mods[i].path);
		free(img->mods[i].build_id);
	}
	size_t n = img->nmods - (last - first) + 1;
	if (n > img->mods_cap) {
		img->mods_cap = n < 16 ? 16 : 2 * n;
		img->mods = gt_xrealloc(img->mods, img->mods_cap * sizeof(*img->mods));
	}
	memmove(img->mods + first + 1, img->mods + last, (img->nmods - last) * sizeof(*img->mods));
	img->nmods = n;
	struct gt_module *mod = &img->mods[first];
	mod->base = r->base;
	mod->size = r->size;
	if (r->path.len && r->path.p[0] != '/' && img->cwd && img->cwd[0] == '/') {
		size_t len = strlen(img->cwd) + 1 + r->path.len + 1;
		mod->path = gt_xmalloc(len);
		snprintf(mod->path, len, "%s/%.*s", img->cwd, (int)r->path.len, r->path.p);
	} else {
		mod->path = gt_xstrndup(r->path.p, r->path.len);
	}
	mod->build_id_len = r->build_id.len;
	mod->build_id = gt_xmalloc(mod->build_id_len);
	memcpy(mod->build_id, r->build_id.p, mod->build_id_len);
}

static struct gt_thread *thread_for(struct gt_image *img, uint64_t serial)
{
	struct gt_thread *t;
	HASH_FIND(hh, img->threads, &serial, sizeof(serial), t);
	if (!t) {
		t = gt_xcalloc(1, sizeof(*t));
		t->heap.serial = serial;
		HASH_ADD(hh, img->threads, heap.serial, sizeof(t->heap.serial), t);
	}
	return t;
}

static void apply_stack(struct gt_image *img, const struct gt_rec_stack *r)
{
	struct gt_stack *s;
	HASH_FIND(hh, img->stacks, &r->id, sizeof(r->id), s);
	if (s) {
		free(s->ips);
	} else {
		s = gt_xcalloc(1, sizeof(*s));
		s->id = r->id;
		HASH_ADD(hh, img->stacks, id, sizeof(s->id), s);
	}
	s->depth = r->depth;
	s->ips = gt_xcalloc(r->depth, sizeof(*s->ips));
	memcpy(s->ips, r->ips, r->depth * sizeof(*s->ips));
}

static int map_failed(const struct gt_image *img, uint64_t result)
{
	return result == UINT64_MAX || (img->pointer_bits == 32 && result == 0xffffffffu);
}

static uint64_t mul_sat(uint64_t a, uint64_t b)
{
	if (a && b > UINT64_MAX / a)
		return UINT64_MAX;
	return a * b;
}

/*
 * The longest a call can plausibly take for the bytes it handles: a fixed
 * allowance plus a generous cost per byte (copying, faulting pages in,
 * unmapping them). Call durations are wall-clock time: a call that took
 * longer held time its thread waited for a CPU on a busy machine (a
 * preempted malloc(32) reads milliseconds), which is no cost of the
 * allocator or of the maps. Measured here, glibc's calls take 20 ns to a
 * few µs, and copying or faulting runs at well under 1 ns per byte.
 */
#define GT_PLAUSIBLE_BASE_NS	 100000u /* 100 µs */
#define GT_PLAUSIBLE_NS_PER_BYTE 2u

static uint64_t live_size(const struct gt_image *img, uint64_t ptr)
{
	const struct gt_live *a = ptr ? gt_ptrmap_get(&img->heap.live, ptr) : NULL;
	return a ? a->size : 0;
}

static uint64_t max64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/* The bytes a call works on, for plausible_ns. Before the heap sees it. */
static uint64_t call_bytes(const struct gt_image *img, const struct gt_rec_call *c)
{
	switch ((enum gt_fn)c->fn) {
	case GT_FN_CALLOC:
		return mul_sat(c->nmemb, c->size);
	case GT_FN_REALLOC:
		return max64(c->size, live_size(img, c->ptr));
	case GT_FN_REALLOCARRAY:
		return max64(mul_sat(c->nmemb, c->size), live_size(img, c->ptr));
	case GT_FN_FREE:
		return live_size(img, c->ptr);
	case GT_FN_MMAP:
	case GT_FN_MMAP64:
	case GT_FN_MUNMAP:
		return c->len;
	case GT_FN_MREMAP:
		return max64(c->old_len, c->new_len);
	default:
		return c->size;
	}
}

static uint64_t plausible_ns(uint64_t bytes)
{
	uint64_t per_byte = mul_sat(bytes, GT_PLAUSIBLE_NS_PER_BYTE);
	return per_byte > UINT64_MAX - GT_PLAUSIBLE_BASE_NS ? UINT64_MAX
							    : per_byte + GT_PLAUSIBLE_BASE_NS;
}

/*
 * Adds a timed call's duration to the image's sums of time, and returns it
 * as the heap takes it (less a clock reading, capped to what is plausible).
 * Untimed calls have no duration: they do not look up the bytes they
 * handle, a lookup in the live table that a report spent a tenth of its
 * time on.
 */
static uint64_t add_time(struct gt_image *img, const struct gt_rec_call *c)
{
	/* A sampled call stands for timed_one_in calls in sums of time (format.h). */
	uint64_t weight = c->sampled ? img->timed_one_in : 1;
	/* The measured interval holds one clock reading besides the call. */
	uint64_t dur = c->dur_ns > img->clock_overhead_ns ? c->dur_ns - img->clock_overhead_ns : 0;
	uint64_t bytes = call_bytes(img, c);
	uint64_t cap = plausible_ns(bytes);
	if (dur > cap) {
		img->capped_calls += weight;
		img->capped_ns += (dur - cap) * weight;
		dur = cap;
	}
	img->fn_ns[c->fn] += dur * weight;
	/*
	 * The allocator's calls by duration, those under a page only: a large
	 * block at a new top of the heap is slow because its pages fault in,
	 * which another allocator pays too.
	 */
	if (c->fn <= GT_FN_PVALLOC && bytes < (img->page_size ? img->page_size : 4096)) {
		int bucket = dur ? 63 - __builtin_clzll(dur) : 0;
		bucket = bucket < GT_DURATION_BUCKETS ? bucket : GT_DURATION_BUCKETS - 1;
		img->alloc_durations[bucket] += weight;
		img->alloc_duration_ns[bucket] += dur * weight;
	}
	return dur;
}

/*
 * When an allocation ended, for the race rule (format.h): as recorded, not
 * less the clock reading or capped as sums of time are (a call preempted
 * for long did end late). In a block of coarser units the end is rounded
 * down as its frees' starts are, so that a free that started after the
 * end never reads as before it.
 */
static uint64_t race_end(const struct gt_block *b, uint64_t t, const struct gt_rec_call *c)
{
	uint64_t end = t + c->dur_ns;
	uint32_t shift = b->h.major >= 2 ? b->h.time_shift : 0;
	return end >> shift << shift;
}

static void apply_call(struct gt_model *m, struct gt_image *img, const struct gt_block *b,
		       const struct gt_rec_call *c)
{
	uint64_t base = img->block_start ? b->h.base_ns : img->now_ns;
	img->block_start = 0;
	img->now_ns = base + (uint64_t)c->dts;
	uint64_t t = img->now_ns;
	if (!img->first_ns)
		img->first_ns = t;
	if (!img->cur)
		img->cur = thread_for(img, 1);
	struct gt_heap_thread *th = &img->cur->heap;
	struct gt_heap *h = &img->heap;
	img->calls[c->fn]++;
	uint64_t dur = c->timed ? add_time(img, c) : 0;
	uint64_t end = race_end(b, t, c);
	img->events++;
	m->events++;

	switch ((enum gt_fn)c->fn) {
	case GT_FN_MALLOC:
	case GT_FN_VALLOC:
	case GT_FN_PVALLOC:
	case GT_FN_ALIGNED_ALLOC:
	case GT_FN_MEMALIGN:
		if (c->result)
			gt_heap_alloc(h, th, c->result, c->size, c->stack, t, end);
		else if (c->size)
			img->failed[c->fn]++;
		break;
	case GT_FN_CALLOC:
		if (c->result)
			gt_heap_alloc(h, th, c->result, mul_sat(c->nmemb, c->size), c->stack, t,
				      end);
		else if (c->nmemb && c->size)
			img->failed[c->fn]++;
		break;
	case GT_FN_POSIX_MEMALIGN:
		if (c->ret == 0 && c->result)
			gt_heap_alloc(h, th, c->result, c->size, c->stack, t, end);
		else if (c->ret)
			img->failed[c->fn]++;
		break;
	case GT_FN_REALLOC:
	case GT_FN_REALLOCARRAY: {
		uint64_t size = c->fn == GT_FN_REALLOC ? c->size : mul_sat(c->nmemb, c->size);
		if (!c->result) {
			/* realloc(p, 0) returning NULL freed p; a failed
			 * realloc (n > 0) left p alone. */
			if (c->ptr && size == 0)
				gt_heap_free(h, th, c->ptr, t);
			else if (size)
				img->failed[c->fn]++;
			break;
		}
		if (c->ptr)
			gt_heap_free(h, th, c->ptr, t);
		gt_heap_alloc(h, th, c->result, size, c->stack, t, end);
		break;
	}
	case GT_FN_FREE:
		if (c->ptr)
			gt_heap_free(h, th, c->ptr, t);
		break;
	case GT_FN_MMAP:
	case GT_FN_MMAP64: {
		enum gt_map_kind kind = gt_map_kind_of(c->flags, c->path.p, c->path.len);
		uint32_t path_id = kind == GT_MAP_ANONYMOUS ? 0 : intern_path(m, &c->path);
		int failed = map_failed(img, c->result);
		img->failed[c->fn] += (uint64_t)failed;
		gt_maps_mmap(&img->maps, c->result, c->len, c->offset, kind, path_id, failed,
			     img->page_size, t, dur);
		break;
	}
	case GT_FN_MUNMAP:
		img->failed[c->fn] += c->sret != 0;
		gt_maps_munmap(&img->maps, c->addr, c->len, c->sret != 0, img->page_size, dur);
		break;
	case GT_FN_MREMAP: {
		int failed = map_failed(img, c->result);
		img->failed[c->fn] += (uint64_t)failed;
		gt_maps_mremap(&img->maps, c->old_addr, c->old_len, c->new_len, c->result, failed,
			       img->page_size, t);
		break;
	}
	case GT_FN_COUNT:
		break;
	}
	/* A retired image's timeline is part of its summary: its forgotten
	 * heap would only show levels that never fall. */
	if (!m->no_timelines && !img->retired)
		gt_timeline_note(&img->timeline, img->has_info ? img->start_mono_ns : img->first_ns,
				 t, h, &img->maps, c->fn >= GT_FN_MMAP && c->fn <= GT_FN_MREMAP);
}

/* A thread's reading after its last map call: what passed since its previous one. */
static void apply_usage(struct gt_image *img, const struct gt_rec_usage *u)
{
	if (!img->cur)
		img->cur = thread_for(img, 1);
	struct gt_thread *t = img->cur;
	if (t->has_usage) {
		uint64_t was = t->usage.minflt + t->usage.majflt, now = u->minflt + u->majflt;
		gt_maps_usage(&img->maps, now > was ? now - was : 0,
			      u->system_ns > t->usage.system_ns ? u->system_ns - t->usage.system_ns
								: 0,
			      t->usage.tracer_ns);
	}
	t->usage = *u;
	t->has_usage = 1;
	if (!img->has_start_faults) {
		img->start_faults = u->minflt + u->majflt;
		img->has_start_faults = 1;
	}
}

static void check_seq(struct gt_model *m, struct gt_image *img, const struct gt_block *b)
{
	/*
	 * An image's blocks are written by its one process, under its stream's
	 * lock, in order: one that repeats or goes back is corruption (a copy
	 * counted twice otherwise), not a block missing.
	 */
	if (b->h.seq < img->next_seq)
		gt_die("corrupt trace: block %u of image %016llx (pid %u) at offset %llu comes "
		       "after its block %u",
		       b->h.seq, (unsigned long long)img->id, img->pid,
		       (unsigned long long)b->offset, img->next_seq - 1);
	if (b->h.seq != img->next_seq) {
		gt_warnf("block %u of image %016llx (pid %u) missing before offset %llu",
			 img->next_seq, (unsigned long long)img->id, img->pid,
			 (unsigned long long)b->offset);
		img->missing_blocks = 1;
		m->missing = 1;
	}
	img->next_seq = b->h.seq + 1;
}

static void apply(struct gt_model *m, struct gt_image *img, const struct gt_block *b,
		  const struct gt_record *r)
{
	if (!r->known) {
		img->unknown_records++;
		m->unknown_records++;
		return;
	}
	switch ((enum gt_record_tag)r->raw.tag) {
	case GT_REC_IMAGE:
		apply_image(img, &r->u.image);
		break;
	case GT_REC_MODULE:
		apply_module(img, &r->u.module);
		break;
	case GT_REC_THREAD:
		img->cur = thread_for(img, r->u.thread.serial);
		img->cur->tid = r->u.thread.tid;
		break;
	case GT_REC_STACK:
		apply_stack(img, &r->u.stack);
		break;
	case GT_REC_CALL:
		apply_call(m, img, b, &r->u.call);
		break;
	case GT_REC_END:
		img->end = r->u.end;
		img->ended = 1;
		queue_ended(m, img);
		break;
	case GT_REC_EXEC_FAILED:
		img->exec_failures++;
		img->ended = 0;
		break;
	case GT_REC_DROPPED:
		img->dropped_calls += r->u.dropped.count;
		break;
	case GT_REC_USAGE:
		apply_usage(img, &r->u.usage);
		break;
	}
}

void gt_model_block_begin(struct gt_model_step *s, struct gt_model *m, const struct gt_block *b)
{
	s->m = m;
	s->b = b;
	s->img = image_for(m, b);
	m->blocks++;
	/* Calls after END come a block each (the tracer writes each at
	 * once): the image waits for them. */
	if (s->img->queued)
		s->img->ended_block = m->blocks;
	check_seq(m, s->img, b);
	s->img->block_start = 1;
}

void gt_model_apply(struct gt_model_step *s, const struct gt_record *r)
{
	apply(s->m, s->img, s->b, r);
}

void gt_model_block_end(struct gt_model_step *s)
{
	retire_due(s->m);
}

void gt_model_step_begin(struct gt_model_step *s, struct gt_model *m, const struct gt_block *b)
{
	gt_model_block_begin(s, m, b);
	gt_rec_iter_init(&s->it, b);
	memset(&s->rec, 0, sizeof(s->rec));
}

int gt_model_step(struct gt_model_step *s)
{
	struct gt_rec raw;
	gt_record_release(&s->rec);
	if (!gt_rec_next(&s->it, &raw)) {
		gt_model_block_end(s);
		return 0;
	}
	gt_decode_record(s->b, &raw, &s->rec);
	gt_model_apply(s, &s->rec);
	return 1;
}

void gt_model_feed(struct gt_model *m, const struct gt_block *b)
{
	struct gt_model_step s;
	gt_model_step_begin(&s, m, b);
	while (gt_model_step(&s))
		;
}

void gt_model_finish(struct gt_model *m, int torn)
{
	m->torn = torn;
	for (size_t i = 0; i < m->n; i++) {
		struct gt_image *img = m->order[i];
		finish_image(img);
		if (m->retire && !img->retired)
			retire(m, img);
	}
}

size_t gt_model_count(const struct gt_model *m)
{
	return m->n;
}

struct gt_image *gt_model_image(const struct gt_model *m, size_t i)
{
	return m->order[i];
}

int gt_image_complete(const struct gt_image *img)
{
	return img->has_info && img->ended && !img->missing_blocks;
}

int gt_model_complete(const struct gt_model *m)
{
	if (m->torn || m->missing)
		return 0;
	for (size_t i = 0; i < m->n; i++)
		if (!gt_image_complete(m->order[i]))
			return 0;
	return 1;
}

uint64_t gt_model_events(const struct gt_model *m)
{
	return m->events;
}

uint64_t gt_model_unknown_records(const struct gt_model *m)
{
	return m->unknown_records;
}

uint64_t gt_model_blocks(const struct gt_model *m)
{
	return m->blocks;
}

const struct gt_stack *gt_image_stack(const struct gt_image *img, uint64_t id)
{
	struct gt_stack *s;
	HASH_FIND(hh, img->stacks, &id, sizeof(id), s);
	return s;
}

const struct gt_module *gt_image_module(const struct gt_image *img, uint64_t ip)
{
	/* Modules are sorted by base: the last one starting at or below ip. */
	size_t lo = 0, hi = img->nmods;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (img->mods[mid].base <= ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	const struct gt_module *mod = &img->mods[lo - 1];
	return ip - mod->base < mod->size ? mod : NULL;
}

double gt_image_wall_seconds(const struct gt_image *img)
{
	uint64_t end = img->ended ? img->end.end_mono_ns : img->now_ns;
	uint64_t start = img->has_info ? img->start_mono_ns : img->first_ns;
	return end > start ? (double)(end - start) / 1e9 : 0;
}

double gt_image_cpu_seconds(const struct gt_image *img)
{
	if (!img->ended)
		return 0;
	return (double)(img->end.user_ns + img->end.system_ns) / 1e9;
}

double gt_image_tracer_seconds(const struct gt_image *img)
{
	return img->ended ? (double)img->end.tracer_ns / 1e9 : 0;
}

static double sum_ns(const struct gt_image *img, int from, int to)
{
	uint64_t ns = 0;
	for (int f = from; f <= to; f++)
		ns += img->fn_ns[f];
	return (double)ns / 1e9;
}

double gt_image_allocator_seconds(const struct gt_image *img)
{
	return sum_ns(img, GT_FN_MALLOC, GT_FN_PVALLOC);
}

uint64_t gt_image_heap_refaults(const struct gt_image *img)
{
	/* Without a first reading, start-up's faults are not known. */
	if (!img->ended || !img->has_start_faults)
		return 0;
	uint64_t page = img->page_size ? img->page_size : 4096;
	const struct gt_heap *h = &img->heap;
	uint64_t needed = img->start_faults + (h->peak_small_bytes + h->huge_bytes) / page;
	for (int k = 0; k < GT_MAP_KIND_COUNT; k++) {
		const struct gt_kind_stats *ks = &img->maps.kind[k];
		needed += k == GT_MAP_ANONYMOUS ? ks->bytes / page
						: ks->bytes / GT_FILE_FAULT_BYTES + ks->mmaps;
	}
	uint64_t faults = img->end.minflt + img->end.majflt;
	uint64_t beyond = faults > needed ? faults - needed : 0;
	return beyond >= GT_REFAULTS_MIN ? beyond : 0;
}

double gt_image_allocator_excess_seconds(const struct gt_image *img, double q)
{
	uint64_t total = 0, seen = 0;
	for (int b = 0; b < GT_DURATION_BUCKETS; b++)
		total += img->alloc_durations[b];
	if (!total)
		return 0;
	/* The quantile's bucket; the mean call in it stands for the usual call. */
	int qb = 0;
	while (qb < GT_DURATION_BUCKETS - 1 &&
	       (double)(seen + img->alloc_durations[qb]) < q * (double)total)
		seen += img->alloc_durations[qb++];
	double usual = img->alloc_durations[qb] ? (double)img->alloc_duration_ns[qb] /
							  (double)img->alloc_durations[qb]
						: 0;
	double excess = 0;
	for (int b = qb + 1; b < GT_DURATION_BUCKETS; b++)
		excess +=
			(double)img->alloc_duration_ns[b] - usual * (double)img->alloc_durations[b];
	return excess > 0 ? excess / 1e9 : 0;
}

double gt_image_mmap_seconds(const struct gt_image *img)
{
	return sum_ns(img, GT_FN_MMAP, GT_FN_MREMAP);
}

const char *gt_origin_name(uint64_t origin)
{
	return GT_NAME_OF(gt_origin_names, origin);
}

double gt_image_peak_seconds(const struct gt_image *img)
{
	const struct gt_heap *h = &img->heap;
	return h->peak_ns > img->start_mono_ns && img->has_info
		       ? (double)(h->peak_ns - img->start_mono_ns) / 1e9
		       : 0;
}

uint64_t gt_image_threads(const struct gt_image *img)
{
	return img->ended && img->end.threads ? img->end.threads
					      : (uint64_t)HASH_COUNT(img->threads);
}

int gt_image_exit_status(const struct gt_image *img, int *status)
{
	/* -1: the status is unknown (the program returned from main). */
	if (!img->ended ||
	    (img->end.reason != GT_END_EXIT && img->end.reason != GT_END_UNDERSCORE_EXIT) ||
	    img->end.status < 0)
		return 0;
	/* Writers before 2026-12-06 wrote what exit was given whole (300, not 44). */
	*status = (int)(img->end.status & 0xff);
	return 1;
}

int gt_image_killed_by(const struct gt_image *img)
{
	return img->ended && img->end.reason == GT_END_SIGNAL && img->end.status > 0
		       ? (int)img->end.status
		       : 0;
}

uint64_t gt_image_map_calls(const struct gt_image *img)
{
	return img->calls[GT_FN_MMAP] + img->calls[GT_FN_MMAP64] + img->calls[GT_FN_MUNMAP] +
	       img->calls[GT_FN_MREMAP];
}

void gt_model_free(struct gt_model *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->n; i++) {
		struct gt_image *img = m->order[i];
		free(img->exe);
		free(img->cwd);
		free_strs(img->argv, img->argc);
		free_strs(img->env, img->envc);
		free_modules(img);
		struct gt_thread *t, *tt;
		HASH_ITER(hh, img->threads, t, tt)
		{
			HASH_DEL(img->threads, t);
			free(t);
		}
		free_stacks(img);
		gt_heap_release(&img->heap);
		gt_maps_release(&img->maps);
		gt_timeline_release(&img->timeline);
		HASH_DEL(m->images, img);
		free(img);
	}
	free(m->order);
	free(m->ended);
	struct path_entry *e, *et;
	HASH_ITER(hh, m->paths, e, et)
	{
		HASH_DEL(m->paths, e);
		free(e->path);
		free(e);
	}
	free(m);
}
