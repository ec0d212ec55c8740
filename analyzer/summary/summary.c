/*
 * Derives the report's numbers from the model. See summary.h.
 */
#include "summary.h"
#include "callers.h"
#include "config_origins.h"
#include "git_settings.h"
#include "shell_quote.h"
#include "tree.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "die.h"
#include "gittrace/git_argv.h"

/*
 * Fills the summary's scratch key with the identity of the frames f[0..n):
 * their names are the symbolizer's interned pointers, so equal frames give
 * equal bytes. Returns its length in bytes.
 */
static size_t site_key(struct gt_summary *s, const struct gt_frame *f, size_t n)
{
	if (!s->key || n > s->key_cap) { /* never NULL: uthash compares it */
		s->key_cap = n > 8 ? 2 * n : 16;
		s->key = gt_xrealloc(s->key, s->key_cap * sizeof(*s->key));
	}
	for (size_t i = 0; i < n; i++)
		s->key[i] = (struct gt_site_key){f[i].function, f[i].file, f[i].line};
	return n * sizeof(*s->key);
}

/*
 * The key's hash for uthash: its words mixed by multiplication, far cheaper
 * than uthash's byte-wise hash on keys of hundreds of bytes. Tables iterate
 * in insertion order, so pointer values never reach the output.
 */
static unsigned key_hash(const struct gt_site_key *key, size_t len)
{
	const uint64_t mix = 0x9E3779B97F4A7C15ull;
	uint64_t h = len;
	for (size_t i = 0; i < len / sizeof(*key); i++) {
		h = (h ^ (uintptr_t)key[i].function) * mix;
		h = (h ^ (uintptr_t)key[i].file) * mix;
		h = (h ^ (uint64_t)key[i].line) * mix;
	}
	return (unsigned)(h >> 32);
}

static struct gt_site_key *copy_key(const struct gt_summary *s, size_t len)
{
	struct gt_site_key *key = gt_xmalloc(len ? len : 1);
	memcpy(key, s->key, len);
	return key;
}

static int str_cmp(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

/* Ties of equal counts, by the frames' names: the same order in every run. */
static int by_frames(const struct gt_site *x, const struct gt_site *y)
{
	for (size_t i = 0; i < x->nframes && i < y->nframes; i++) {
		const struct gt_frame *a = &x->frames[i], *b = &y->frames[i];
		int c = str_cmp(a->function, b->function);
		if (!c)
			c = str_cmp(a->file, b->file);
		if (!c)
			c = (a->line > b->line) - (a->line < b->line);
		if (c)
			return c;
	}
	return (x->nframes > y->nframes) - (x->nframes < y->nframes);
}

int gt_site_by_allocations(const void *a, const void *b)
{
	const struct gt_site *x = *(const struct gt_site *const *)a;
	const struct gt_site *y = *(const struct gt_site *const *)b;
	if (x->allocations != y->allocations)
		return x->allocations < y->allocations ? 1 : -1;
	if (x->bytes != y->bytes)
		return x->bytes < y->bytes ? 1 : -1;
	return by_frames(x, y);
}

/* qsort order of sites: the larger of one counter (at offset counter) first, then by key. */
static int heavier_by(const void *a, const void *b, size_t counter)
{
	const struct gt_site *x = *(const struct gt_site *const *)a;
	const struct gt_site *y = *(const struct gt_site *const *)b;
	uint64_t cx, cy;
	memcpy(&cx, (const char *)x + counter, sizeof(cx));
	memcpy(&cy, (const char *)y + counter, sizeof(cy));
	return cx < cy ? 1 : cx > cy ? -1 : by_frames(x, y);
}

int gt_site_by_bytes(const void *a, const void *b)
{
	return heavier_by(a, b, offsetof(struct gt_site, bytes));
}

int gt_site_by_temporary(const void *a, const void *b)
{
	return heavier_by(a, b, offsetof(struct gt_site, temporary));
}

int gt_site_by_peak(const void *a, const void *b)
{
	return heavier_by(a, b, offsetof(struct gt_site, at_peak_bytes));
}

/*
 * A stack's function names (the symbolizer's interned pointers), the key:
 * thousands of short processes of one program have the same stacks.
 */
struct gt_function_list {
	UT_hash_handle hh;
	const char *functions[];
};

/* Sets ps to the stack with counts c and frames f as folded stacks draw it. */
static void set_program_frames(struct gt_summary *s, struct gt_proc_stack *ps,
			       const struct gt_stack_counts *c, const struct gt_frame *f, size_t n)
{
	size_t first = gt_program_frame(f, n), kept = 0;
	ps->counts = c;
	/* The tracer's own frames (its wrapper of main) are in every stack. */
	for (size_t i = first; i < n; i++)
		kept += !(f[i].role & GT_FRAME_TRACER);
	ps->nfunctions = kept;
	if (!ps->nfunctions)
		return;
	size_t len = ps->nfunctions * sizeof(const char *);
	struct gt_function_list *e = gt_xcalloc(1, sizeof(*e) + len);
	for (size_t i = first, k = 0; i < n; i++)
		if (!(f[i].role & GT_FRAME_TRACER))
			e->functions[k++] = f[i].function;
	struct gt_function_list *have;
	HASH_FIND(hh, s->function_lists, e->functions, len, have);
	if (have) {
		free(e);
		e = have;
	} else {
		HASH_ADD_KEYPTR(hh, s->function_lists, e->functions, len, e);
	}
	ps->functions = e->functions;
}

/*
 * Symbolizes each stack of p's image once: for its site, merged with the
 * sites of equal frames from the site outwards, and for p->stacks if a
 * hook is to see them (gt_summary_on_stacks).
 */
static void build_sites(struct gt_summary *s, struct gt_proc *p)
{
	struct gt_site *table = NULL;
	const struct gt_heap *h = &p->img->heap;
	int stacks = s->stacks_hook != NULL;
	if (stacks) {
		p->nstacks = h->nstacks;
		p->stacks = gt_xcalloc(h->nstacks ? h->nstacks : 1, sizeof(*p->stacks));
	}
	for (size_t k = 0; k < h->nstacks; k++) {
		const struct gt_stack_counts *c = &h->stacks[k];
		const struct gt_stack *st = gt_image_stack(p->img, c->stack);
		struct gt_frame *f = NULL;
		size_t n = 0, first = 0;
		if (st)
			n = gt_symbolize_stack(s->sym, p->img, st, &f);
		if (stacks)
			set_program_frames(s, &p->stacks[k], c, f, n);
		if (st) {
			first = gt_site_frame(f, n);
			if (first == n) /* only allocator frames: keep the outermost */
				first = n ? n - 1 : 0;
		}
		size_t key_len = site_key(s, n ? f + first : NULL, n - first);
		unsigned hash = key_hash(s->key, key_len);
		struct gt_site *site;
		HASH_FIND_BYHASHVALUE(hh, table, s->key, key_len, hash, site);
		if (site) {
			free(f);
		} else {
			site = gt_xcalloc(1, sizeof(*site));
			site->key = copy_key(s, key_len);
			site->key_len = key_len;
			site->key_hash = hash;
			if (n) {
				/* Keep only the frames from the site outwards. */
				memmove(f, f + first, (n - first) * sizeof(*f));
				site->nframes = n - first;
				site->frames = f;
				site->function = site->frames[0].function;
				site->caller = gt_program_caller(site->frames, site->nframes);
			} else {
				free(f);
				site->function = "?";
			}
			HASH_ADD_KEYPTR_BYHASHVALUE(hh, table, site->key, key_len, hash, site);
		}
		site->allocations += c->allocations;
		site->bytes += c->bytes;
		site->temporary += c->temporary;
		site->leaked_allocations += c->leaked_allocations;
		site->leaked_bytes += c->leaked_bytes;
		site->at_peak_bytes += c->at_peak_bytes;
	}
	p->nsites = HASH_COUNT(table);
	p->sites = gt_xcalloc(p->nsites, sizeof(*p->sites));
	size_t i = 0;
	struct gt_site *site, *tmp;
	HASH_ITER(hh, table, site, tmp)
	{
		HASH_DEL(table, site);
		p->sites[i++] = site;
	}
	qsort(p->sites, p->nsites, sizeof(*p->sites), gt_site_by_allocations);
	for (size_t j = 0; j < p->nsites; j++)
		p->sites[j]->index = j;
}

/* An image's command line, shell-quoted ("" if its IMAGE record is missing). */
static char *command_line(const struct gt_image *img)
{
	char buf[4096] = "";
	for (size_t a = 0; a < img->argc; a++)
		gt_shell_quote(buf, sizeof(buf), img->argv[a]);
	return gt_xstrndup(buf, strlen(buf));
}

/* `git` as img ran it, with its repository options; "git" for no image. */
static char *git_of(const struct gt_image *img)
{
	char buf[512] = "git";
	if (img)
		gt_git_with_repo_options(img, buf, sizeof(buf));
	return gt_xstrndup(buf, strlen(buf));
}

/* The run's first image of a root; NULL if none has its IMAGE record. */
static const struct gt_image *first_root(const struct gt_model *m)
{
	for (size_t i = 0; i < gt_model_count(m); i++) {
		const struct gt_image *img = gt_model_image(m, i);
		if (img->has_info && img->origin == GT_ORIGIN_ROOT)
			return img;
	}
	return NULL;
}

/*
 * With --pid, the processes summarized are one pid's images, whose tree
 * root lies outside them: the run's first root stands for all.
 */
static void commands_of_first_root(struct gt_summary *s, const struct gt_model *m)
{
	const struct gt_image *root = first_root(m);
	s->command = "";
	s->git = "git";
	if (!s->n)
		return;
	s->procs[0].root_command = root ? command_line(root) : gt_xstrndup("", 0);
	s->procs[0].root_git = git_of(root);
	for (size_t i = 0; i < s->n; i++) {
		s->procs[i].command = s->procs[0].root_command;
		s->procs[i].git = s->procs[0].root_git;
		s->procs[i].root_img = root;
	}
	s->command = s->procs[0].command;
	s->git = s->procs[0].git;
	s->root_img = root;
}

/*
 * Each process's command: its tree root's (the ancestor no traced process
 * started); the run's: that of the heaviest tree (gt_proc_weight), where
 * `git log | sort`, traced whole, has two trees. Path compression keeps a
 * long chain of execs linear.
 */
static void commands(struct gt_summary *s, const struct gt_model *m)
{
	if (s->pid >= 0) {
		commands_of_first_root(s, m);
		return;
	}
	long *parent = gt_summary_parents(s);
	long *root = gt_xcalloc(s->n ? s->n : 1, sizeof(*root));
	double *tree_weight = gt_xcalloc(s->n ? s->n : 1, sizeof(*tree_weight));
	for (size_t i = 0; i < s->n; i++)
		root[i] = -1;
	for (size_t i = 0; i < s->n; i++) {
		long r = (long)i;
		while (root[r] < 0 && parent[r] >= 0)
			r = parent[r];
		r = root[r] >= 0 ? root[r] : r;
		for (long up = (long)i; root[up] < 0; up = parent[up] >= 0 ? parent[up] : up)
			root[up] = r;
		tree_weight[r] += gt_proc_weight(&s->procs[i]);
	}
	long heaviest = -1;
	for (size_t i = 0; i < s->n; i++) {
		if (root[i] != (long)i)
			continue;
		s->procs[i].root_command = command_line(s->procs[i].img);
		s->procs[i].root_git = git_of(s->procs[i].img);
		if (heaviest < 0 || tree_weight[i] > tree_weight[heaviest])
			heaviest = (long)i;
	}
	for (size_t i = 0; i < s->n; i++) {
		struct gt_proc *p = &s->procs[i];
		p->command = s->procs[root[i]].root_command;
		p->git = s->procs[root[i]].root_git;
		p->root_img = s->procs[root[i]].img;
	}
	s->command = heaviest >= 0 ? s->procs[heaviest].command : "";
	s->git = heaviest >= 0 ? s->procs[heaviest].git : "git";
	s->root_img = heaviest >= 0 ? s->procs[heaviest].img : NULL;
	free(tree_weight);
	free(root);
	free(parent);
}

static int has_arg(const struct gt_image *img, const char *arg)
{
	for (size_t i = 1; i < img->argc; i++)
		if (strcmp(img->argv[i], arg) == 0)
			return 1;
	return 0;
}

/*
 * The git subcommand of the run that packs loose objects itself, NULL if
 * none does: it maps them to pack them, so "run git gc" is no advice there.
 * A gc or maintenance with --auto may find nothing to do; when it packs,
 * the repack it runs is in the tree.
 */
static const char *packing_subcommand(const struct gt_model *m)
{
	static const char *const packers[] = {"gc", "repack", "maintenance", "prune"};
	for (size_t i = 0; i < gt_model_count(m); i++) {
		const struct gt_image *img = gt_model_image(m, i);
		const char *sub =
			img->has_info ? gt_git_subcommand(img->argc, (const char *const *)img->argv)
				      : NULL;
		if (!sub || has_arg(img, "--auto"))
			continue;
		for (size_t k = 0; k < sizeof(packers) / sizeof(packers[0]); k++)
			if (strcmp(sub, packers[k]) == 0)
				return packers[k];
	}
	return NULL;
}

double gt_proc_weight(const struct gt_proc *p)
{
	return p->img->ended ? p->cpu : p->wall;
}

static int heavier(const void *a, const void *b)
{
	const struct gt_proc *x = a, *y = b;
	double wx = gt_proc_weight(x), wy = gt_proc_weight(y);
	if (wx != wy)
		return wx < wy ? 1 : -1;
	if (x->img->events != y->img->events)
		return x->img->events < y->img->events ? 1 : -1;
	return x->img->order < y->img->order ? -1 : 1;
}

/*
 * A page given back and written again, as the run measured it at its start
 * (format.h, IMAGE page_cycle_ns: its roots'; the least if several), the
 * price of heap refaults in every process; 0 when no root measured it.
 */
static uint64_t run_page_cycle_ns(const struct gt_summary *s)
{
	uint64_t least = 0;
	for (size_t i = 0; i < s->n; i++) {
		uint64_t ns = s->procs[i].img->page_cycle_ns;
		if (ns && (!least || ns < least))
			least = ns;
	}
	return least;
}

static void fill_input(struct gt_verdict_input *in, const struct gt_proc *p, uint64_t page_cycle_ns)
{
	const struct gt_image *img = p->img;
	const struct gt_maps *mp = &img->maps;
	memset(in, 0, sizeof(*in));
	in->cpu_seconds = p->img->ended ? p->basis : 0;
	in->tracer_seconds = p->tracer_s;
	in->inside_floors = (unsigned)p->basis_inside;
	in->unended = !p->img->ended;
	in->system_seconds = p->img->ended ? (double)p->img->end.system_ns / 1e9 : 0;
	in->capped_calls = p->img->capped_calls;
	in->capped_seconds = (double)p->img->capped_ns / 1e9;
	in->involuntary_switches = p->img->ended ? p->img->end.involuntary_switches : 0;
	in->wall_seconds = p->wall;
	in->allocator_seconds = p->allocator_s;
	in->mmap_seconds = p->mmap_s;
	in->allocations = img->heap.allocations;
	in->temporary = img->heap.temporary;
	in->map_calls = p->map_calls;
	in->pack_mmaps = mp->kind[GT_MAP_PACK].mmaps;
	in->pack_munmaps = mp->kind[GT_MAP_PACK].munmaps;
	in->pack_regions = mp->distinct_pack_regions;
	in->thrash = p->thrash;
	in->loose_mmaps = mp->kind[GT_MAP_LOOSE].mmaps;
	in->window = p->window;
	in->peak_pack_windows = p->window ? mp->peak_pack_mapped_bytes / p->window : 0;
	in->evictions = mp->evictions;
	in->limit_at_least = mp->limit_at_least;
	in->limit_below = mp->limit_below;
	in->window_advice = p->window_advice.raise ? &p->window_advice : NULL;
	in->window_settings = p->window_settings;
	in->has_window_cost = mp->usage_periods > 0;
	in->again_calls_seconds = (double)mp->again_calls_ns / 1e9;
	in->again_faults = mp->again.faults;
	in->again_system_seconds = gt_window_cost_system_ns(mp->again.system_ns) / 1e9;
	in->again_any_system_seconds = gt_window_cost_system_ns(mp->again.any_system_ns) / 1e9;
	in->allocator_excess_usual = gt_image_allocator_excess_seconds(img, 0.5);
	in->allocator_excess_slow = gt_image_allocator_excess_seconds(img, 0.9);
	in->heap_refaults = gt_image_heap_refaults(img);
	uint64_t faults = img->end.minflt + img->end.majflt;
	in->page_cycle_seconds = (double)page_cycle_ns / 1e9;
	gt_verdict_price_refaults(in, faults);
	in->env = (const char *const *)img->env;
	in->envc = img->envc;
}

/* The function names of the heaviest sites by allocations, each once, for the verdict. */
static const char **top_names(const struct gt_proc *p, size_t *n)
{
	const char **v = gt_xcalloc(3, sizeof(*v));
	*n = 0;
	/* Sites are stacks: several of one function name it once. */
	for (size_t i = 0; i < p->nsites && *n < 3; i++) {
		size_t seen = 0;
		while (seen < *n && strcmp(v[seen], p->sites[i]->function) != 0)
			seen++;
		if (seen == *n)
			v[(*n)++] = p->sites[i]->function;
	}
	return v;
}

static void add_totals(struct gt_totals *t, const struct gt_proc *p)
{
	const struct gt_image *img = p->img;
	for (int f = 0; f < GT_FN_COUNT; f++) {
		t->calls[f] += img->calls[f];
		t->fn_ns[f] += img->fn_ns[f];
		t->failed[f] += img->failed[f];
	}
	t->allocations += img->heap.allocations;
	t->allocated_bytes += img->heap.allocated_bytes;
	t->peak_bytes += img->heap.peak_bytes;
	t->temporary += img->heap.temporary;
	t->leaked_allocations += img->heap.leaked_allocations;
	t->leaked_bytes += img->heap.leaked_bytes;
	t->untracked_frees += img->heap.untracked_frees;
	t->allocator_s += p->allocator_s;
	t->mmap_s += p->mmap_s;
	t->cpu += p->cpu;
	t->tracer_s += p->tracer_s;
	t->peak_mapped_bytes += img->maps.peak_mapped_bytes;
	t->remapped_regions += img->maps.remapped_regions;
	for (int k = 0; k < GT_MAP_KIND_COUNT; k++) {
		t->kind[k].mmaps += img->maps.kind[k].mmaps;
		t->kind[k].munmaps += img->maps.kind[k].munmaps;
		t->kind[k].mremaps += img->maps.kind[k].mremaps;
		t->kind[k].bytes += img->maps.kind[k].bytes;
	}
}

/* The process with the most pack maps: the tree's window facts are its. NULL: none. */
static const struct gt_proc *packiest_of(const struct gt_summary *s)
{
	const struct gt_proc *packiest = NULL;
	for (size_t i = 0; i < s->n; i++) {
		const struct gt_proc *p = &s->procs[i];
		if (!packiest || p->img->maps.kind[GT_MAP_PACK].mmaps >
					 packiest->img->maps.kind[GT_MAP_PACK].mmaps)
			packiest = p;
	}
	return packiest;
}

/* The tree's verdict input: sums, and the window facts of the process
 * with the most pack maps (windows are per process). */
static void tree_input(struct gt_verdict_input *in, const struct gt_summary *s)
{
	memset(in, 0, sizeof(*in));
	const struct gt_proc *packiest = packiest_of(s);
	uint64_t page_cycle_ns = run_page_cycle_ns(s);
	in->page_cycle_seconds = (double)page_cycle_ns / 1e9;
	for (size_t i = 0; i < s->n; i++) {
		const struct gt_proc *p = &s->procs[i];
		struct gt_verdict_input one;
		fill_input(&one, p, page_cycle_ns);
		/* Processes that never ended contribute their wall time. */
		in->cpu_seconds += p->basis;
		in->tracer_seconds += one.tracer_seconds;
		in->inside_floors += one.inside_floors;
		in->unended += one.unended;
		in->system_seconds += one.system_seconds;
		in->capped_calls += one.capped_calls;
		in->capped_seconds += one.capped_seconds;
		in->involuntary_switches += one.involuntary_switches;
		in->wall_seconds =
			one.wall_seconds > in->wall_seconds ? one.wall_seconds : in->wall_seconds;
		in->allocator_seconds += one.allocator_seconds;
		in->mmap_seconds += one.mmap_seconds;
		in->allocations += one.allocations;
		in->temporary += one.temporary;
		in->map_calls += one.map_calls;
		in->pack_mmaps += one.pack_mmaps;
		in->pack_munmaps += one.pack_munmaps;
		in->pack_regions += one.pack_regions;
		in->loose_mmaps += one.loose_mmaps;
		in->evictions += one.evictions;
		in->has_window_cost |= one.has_window_cost;
		in->again_calls_seconds += one.again_calls_seconds;
		in->again_faults += one.again_faults;
		in->again_system_seconds += one.again_system_seconds;
		in->again_any_system_seconds += one.again_any_system_seconds;
		in->allocator_excess_usual += one.allocator_excess_usual;
		in->allocator_excess_slow += one.allocator_excess_slow;
		in->heap_refaults += one.heap_refaults;
		in->refault_seconds += one.refault_seconds;
		in->refault_point_seconds += one.refault_point_seconds;
	}
	/* No process ended: no CPU time is known, shares are of wall time. */
	if (s->n && in->unended == s->n)
		in->cpu_seconds = 0;
	in->thrash = in->pack_regions ? (double)in->pack_mmaps / (double)in->pack_regions : 0;
	if (packiest) {
		in->window = packiest->window;
		in->peak_pack_windows =
			packiest->window
				? packiest->img->maps.peak_pack_mapped_bytes / packiest->window
				: 0;
		in->limit_at_least = packiest->img->maps.limit_at_least;
		in->limit_below = packiest->img->maps.limit_below;
		in->window_settings = packiest->window_settings;
		if (packiest->window_advice.raise)
			in->window_advice = &packiest->window_advice;
		in->env = (const char *const *)s->procs[0].img->env;
		in->envc = s->procs[0].img->envc;
	}
}

void gt_summary_init(struct gt_summary *s, const char *path, struct gt_symbolizer *sym, long pid,
		     size_t keep_sites, const struct gt_replay_input *replay)
{
	memset(s, 0, sizeof(*s));
	s->replay = replay;
	s->path = path;
	s->sym = sym;
	s->pid = pid;
	s->keep_sites = keep_sites;
}

/* A lookup of where window settings come from (gt_summary_look_up_config). */
struct gt_config_lookup {
	char *key; /* gt_config_origins_git: the process's directory and options */
	struct gt_config_origins origins;
	int answered; /* git answered: origins holds its answer */
};

void gt_summary_look_up_config(struct gt_summary *s)
{
	s->look_up_config = 1;
}

/*
 * Where the window settings of img, a process that mapped pack windows,
 * come from: looked up once per directory and options, at most
 * GT_CONFIG_LOOKUPS_MAX times; NULL if not asked for, past that, or if git
 * could not tell (said once on stderr).
 */
static const struct gt_config_origins *config_of(struct gt_summary *s, const struct gt_image *img)
{
	if (!s->look_up_config || !img)
		return NULL;
	/* Processes in one directory, with the same options, have one answer. */
	char *key = gt_config_origins_git(img);
	if (!key)
		key = gt_xstrndup("", 0);
	for (size_t i = 0; i < s->nconfigs; i++)
		if (!strcmp(s->configs[i].key, key)) {
			free(key);
			return s->configs[i].answered ? &s->configs[i].origins : NULL;
		}
	if (s->nconfigs == GT_CONFIG_LOOKUPS_MAX) {
		free(key);
		return NULL;
	}
	if (!s->configs)
		s->configs = gt_xcalloc(GT_CONFIG_LOOKUPS_MAX, sizeof(*s->configs));
	struct gt_config_lookup *l = &s->configs[s->nconfigs++];
	l->key = key;
	l->answered = gt_config_origins_look_up(&l->origins, img) == 0;
	if (!l->answered)
		gt_warnf("git config could not say where the pack window settings of pid %u "
			 "come from (from '%s'): its advice is the generic one",
			 img->pid, img->cwd ? img->cwd : "");
	return l->answered ? &l->origins : NULL;
}

/* How the advice reaches p's repository with `git config --local`: NULL, p's root's git. */
static const char *config_git(const struct gt_config_origins *c, const struct gt_image *img,
			      const struct gt_image *root)
{
	return c && img != root ? c->git : NULL;
}

static void site_free(struct gt_site *site)
{
	if (!site->shared) {
		free(site->frames);
		free(site->key);
	}
	free(site);
}

/*
 * Keeps, if keep is not 0, the sites the reports can list: the first keep
 * by allocations, by bytes, by temporary allocations and by bytes live at
 * the peak, and the first keep stacks of the first keep rows by caller in
 * the program (p->sites stays in order of allocations).
 */
static void cap_sites(struct gt_proc *p, size_t keep)
{
	static int (*const orders[])(const void *, const void *) = {
		gt_site_by_bytes, gt_site_by_temporary, gt_site_by_peak};
	if (!keep || p->nsites <= keep)
		return;
	struct gt_site **v = gt_xcalloc(p->nsites, sizeof(*v));
	unsigned char *kept = gt_xcalloc(p->nsites, 1);
	for (size_t j = 0; j < keep; j++)
		kept[j] = 1;
	for (size_t o = 0; o < sizeof(orders) / sizeof(orders[0]); o++) {
		memcpy(v, p->sites, p->nsites * sizeof(*v));
		qsort(v, p->nsites, sizeof(*v), orders[o]);
		for (size_t j = 0; j < keep; j++)
			for (size_t k = 0; k < p->nsites; k++)
				if (p->sites[k] == v[j])
					kept[k] = 1;
	}
	gt_callers_cap(p, keep, kept);
	size_t n = 0;
	for (size_t j = 0; j < p->nsites; j++) {
		if (kept[j])
			p->sites[n++] = p->sites[j];
		else
			site_free(p->sites[j]);
	}
	p->nsites = n;
	free(kept);
	free(v);
}

/* Makes p's sites use the summary's copy of their frames, adding new ones. */
static void share_frames(struct gt_summary *s, struct gt_proc *p)
{
	for (size_t j = 0; j < p->nsites; j++) {
		struct gt_site *site = p->sites[j];
		struct gt_site_frames *sf;
		HASH_FIND_BYHASHVALUE(hh, s->site_frames, site->key, site->key_len, site->key_hash,
				      sf);
		if (sf) {
			free(site->frames);
			free(site->key);
		} else {
			sf = gt_xcalloc(1, sizeof(*sf));
			sf->key = site->key;
			sf->frames = site->frames;
			sf->nframes = site->nframes;
			HASH_ADD_KEYPTR_BYHASHVALUE(hh, s->site_frames, sf->key, site->key_len,
						    site->key_hash, sf);
		}
		site->key = sf->key;
		site->frames = sf->frames;
		site->nframes = sf->nframes;
		site->function = sf->nframes ? sf->frames[0].function : "?";
		site->shared = 1;
	}
}

int gt_summary_takes(const struct gt_summary *s, const struct gt_image *img)
{
	return s->pid < 0 || img->pid == (uint64_t)s->pid;
}

void gt_summary_add(struct gt_summary *s, const struct gt_image *img)
{
	if (!gt_summary_takes(s, img))
		return;
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		s->procs = gt_xrealloc(s->procs, s->cap * sizeof(*s->procs));
	}
	struct gt_proc *p = &s->procs[s->n++];
	memset(p, 0, sizeof(*p));
	p->img = img;
	/* What needs the image's details; its counters are read at finish. */
	p->window = gt_maps_inferred_window(&img->maps);
	p->thrash = gt_maps_thrash_ratio(&img->maps);
	gt_window_advise(&p->window_advice, &img->maps.unlimited, img->maps.evictions, p->window);
	build_sites(s, p);
	gt_callers_build(p);
	cap_sites(p, s->keep_sites);
	share_frames(s, p);
	if (s->stacks_hook) {
		s->stacks_hook(s->stacks_ctx, p);
		free(p->stacks);
		p->stacks = NULL;
		p->nstacks = 0;
	}
}

void gt_summary_on_stacks(struct gt_summary *s, gt_proc_stacks_hook *hook, void *ctx)
{
	s->stacks_hook = hook;
	s->stacks_ctx = ctx;
}

/*
 * The times and facts of p's image, from counters the model keeps after
 * retiring it (calls that arrive for an image after it was summarized
 * still count).
 */
/*
 * The name of signal sig into name ("" for 0): the tracer ends an image
 * for the signals it catches (format.h, GT_CAUGHT_SIGNALS, by their Linux
 * numbers); another number is written as a number.
 */
static void signal_name(int sig, char *name, size_t size)
{
#define GT_SIGNAL_NAME(number, abbrev) {number, "SIG" #abbrev},
	static const struct {
		int sig;
		const char *name;
	} names[] = {GT_CAUGHT_SIGNALS(GT_SIGNAL_NAME)};
#undef GT_SIGNAL_NAME
	*name = '\0';
	if (sig)
		snprintf(name, size, "signal %d", sig);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].sig == sig)
			snprintf(name, size, "%s", names[i].name);
}

static void set_facts(struct gt_proc *p)
{
	const struct gt_image *img = p->img;
	p->wall = gt_image_wall_seconds(img);
	p->cpu = gt_image_cpu_seconds(img);
	p->tracer_s = gt_image_tracer_seconds(img);
	p->allocator_s = gt_image_allocator_seconds(img);
	p->mmap_s = gt_image_mmap_seconds(img);
	p->basis = p->wall;
	if (img->ended) {
		/* Time measured inside calls cannot exceed the program's time. */
		double inside = p->allocator_s + p->mmap_s;
		p->basis_inside = p->cpu - p->tracer_s < inside;
		p->basis = p->basis_inside ? inside : p->cpu - p->tracer_s;
	}
	p->origin = gt_origin_name(img->origin);
	p->peak_seconds = gt_image_peak_seconds(img);
	p->threads = gt_image_threads(img);
	p->map_calls = gt_image_map_calls(img);
	p->has_exit_status = gt_image_exit_status(img, &p->exit_status);
	signal_name(gt_image_killed_by(img), p->killed_by, sizeof(p->killed_by));
}

/*
 * Each process's window settings given with git -c (git_settings.h): its
 * own, else its nearest ancestor's, as git passes them down to the
 * commands it runs (a script's `git -c ... fetch` to its index-pack).
 */
static void window_settings(struct gt_summary *s)
{
	for (size_t i = 0; i < s->n; i++) {
		struct gt_proc *p = &s->procs[i];
		gt_window_settings_given(p->img, p->window_settings, sizeof(p->window_settings));
	}
	long *parent = gt_summary_parents(s);
	/* Parents start earlier (tree.h): in that order, each parent's settings
	 * are its own or its ancestors' already, and a long chain is no square. */
	size_t *by_start = gt_summary_by_start(s);
	for (size_t k = 0; k < s->n; k++) {
		struct gt_proc *p = &s->procs[by_start[k]];
		long up = parent[by_start[k]];
		if (!p->window_settings[0] && up >= 0)
			memcpy(p->window_settings, s->procs[up].window_settings,
			       sizeof(p->window_settings));
	}
	free(by_start);
	free(parent);
}

/*
 * Window settings that a git the command runs gave with -c, where the
 * command itself (its tree's root) did not: gittrace ab's variants rank
 * below them, so --confirm cannot measure git's defaults (docs/ab.md).
 * Only processes that mapped pack windows count. NULL if none.
 */
static const char *settings_inside(const struct gt_summary *s)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct gt_proc *p = &s->procs[i];
		if (!p->window_settings[0] || !p->root_img || !p->img->maps.kind[GT_MAP_PACK].mmaps)
			continue;
		char root_given[sizeof(p->window_settings)];
		gt_window_settings_given(p->root_img, root_given, sizeof(root_given));
		if (strcmp(p->window_settings, root_given) != 0)
			return p->window_settings;
	}
	return NULL;
}

void gt_summary_finish(struct gt_summary *s, const struct gt_model *m)
{
	s->m = m;
	for (size_t i = 0; i < s->n; i++)
		set_facts(&s->procs[i]);
	if (s->n) /* qsort(NULL, 0) is undefined: a trace with no process */
		qsort(s->procs, s->n, sizeof(*s->procs), heavier);
	commands(s, m);
	const char *packer = packing_subcommand(m);
	window_settings(s);
	/* A trace cut short may lack the images that followed an exec. */
	if (gt_model_complete(m)) {
		long *parent = gt_summary_parents(s);
		s->untraced_execs = gt_summary_untraced_execs(s, parent);
		free(parent);
	}
	s->settings_inside = settings_inside(s);
	uint64_t page_cycle_ns = run_page_cycle_ns(s);
	for (size_t i = 0; i < s->n; i++) {
		struct gt_proc *p = &s->procs[i];
		struct gt_verdict_input in;
		fill_input(&in, p, page_cycle_ns);
		in.command = p->command;
		in.git = p->git;
		in.packer = packer;
		/* Only where windows were mapped is there a setting to place. */
		if (in.pack_mmaps)
			p->config = config_of(s, p->img);
		in.config = p->config;
		in.config_git = config_git(p->config, p->img, p->root_img);
		const char **names = top_names(p, &in.ntop_sites);
		in.top_sites = names;
		struct gt_replay_delta *replay =
			s->replay ? gt_replay_input_deltas(s->replay, p->img->pid, &in.nreplay)
				  : NULL;
		in.replay = replay;
		gt_verdict_compute(&p->verdict, &in);
		free(replay);
		free(names);
		add_totals(&s->totals, p);
	}
	struct gt_verdict_input in;
	tree_input(&in, s);
	in.command = s->command;
	in.git = s->git;
	in.packer = packer;
	const struct gt_proc *packiest = packiest_of(s);
	if (in.pack_mmaps && packiest) {
		s->config = packiest->config;
		in.config_git = config_git(s->config, packiest->img, s->root_img);
	}
	in.config = s->config;
	const char **names = s->n ? top_names(&s->procs[0], &in.ntop_sites) : NULL;
	in.top_sites = names;
	struct gt_replay_delta *replay =
		s->replay ? gt_replay_input_deltas(s->replay, s->pid, &in.nreplay) : NULL;
	in.replay = replay;
	gt_verdict_compute(&s->verdict, &in);
	free(replay);
	free(names);
	s->stripped = gt_symbolizer_stripped(s->sym, &s->nstripped);
}

void gt_summary_release(struct gt_summary *s)
{
	for (size_t i = 0; i < s->n; i++) {
		struct gt_proc *p = &s->procs[i];
		for (size_t j = 0; j < p->nsites; j++)
			site_free(p->sites[j]);
		free(p->sites);
		gt_callers_release(p);
		free(p->stacks);
		free(p->root_command);
		free(p->root_git);
		gt_verdict_release(&p->verdict);
	}
	free(s->procs);
	gt_verdict_release(&s->verdict);
	for (size_t i = 0; i < s->nconfigs; i++) {
		gt_config_origins_release(&s->configs[i].origins);
		free(s->configs[i].key);
	}
	free(s->configs);
	struct gt_site_frames *sf, *tmp;
	HASH_ITER(hh, s->site_frames, sf, tmp)
	{
		HASH_DEL(s->site_frames, sf);
		free(sf->frames);
		free(sf->key);
		free(sf);
	}
	struct gt_function_list *l, *ltmp;
	HASH_ITER(hh, s->function_lists, l, ltmp)
	{
		HASH_DEL(s->function_lists, l);
		free(l);
	}
	free(s->key);
}
