/*
 * The HTML report's flame graph data: every image's allocating stacks
 * merged into one tree of frames, with three weights per node (allocations,
 * bytes, temporary allocations). The stacks are the summary's
 * (gt_proc.stacks), as --folded prints them (report_folded.c): the
 * allocator's own frames dropped, the image as the root frame, outermost
 * first.
 *
 * Encoding, compact because a repack has thousands of stacks:
 *   "flame": {"nodes": [depth, name, allocations, bytes, temporary, ...],
 *             "names": [str...]}
 * nodes is a flat preorder walk, five numbers per node; name indexes names;
 * the first node is the root (depth 0, "all"). A node's weights include its
 * children's; children come heaviest by allocations first. A flat list, not
 * nested arrays: stacks are deeper than the JSON writer nests.
 *
 * A subtree under 1/GT_FLAME_MIN_SHARE of the root by every weight is left
 * out (its weight stays in its parent's): it would be narrower than a
 * pixel unless zoomed in tens of times, and traces of many processes
 * would otherwise make pages of many megabytes.
 */
#include "report_html.h"

#include <stdlib.h>
#include <string.h>
#include <uthash.h>

#include "die.h"

enum { W_ALLOCATIONS, W_BYTES, W_TEMPORARY, W_COUNT };

#define GT_FLAME_MIN_SHARE 100000

struct name {
	char *s; /* key */
	uint32_t id;
	UT_hash_handle hh;
};

struct node {
	uint32_t name; /* key among its siblings */
	uint64_t w[W_COUNT];
	struct node *children; /* uthash */
	UT_hash_handle hh;
};

struct flame {
	struct name *by_str;
	char **names; /* by id */
	size_t nnames, cap;
	struct node root;
	uint32_t *renamed; /* by id: the name's index in the output */
	uint32_t *used;	   /* the output's names, as ids */
	size_t nused;
};

static uint32_t intern(struct flame *f, const char *s)
{
	struct name *e;
	HASH_FIND_STR(f->by_str, s, e);
	if (e)
		return e->id;
	e = gt_xcalloc(1, sizeof(*e));
	e->s = gt_xstrndup(s, strlen(s));
	e->id = (uint32_t)f->nnames;
	HASH_ADD_KEYPTR(hh, f->by_str, e->s, strlen(e->s), e);
	if (f->nnames == f->cap) {
		f->cap = f->cap ? 2 * f->cap : 256;
		f->names = gt_xrealloc(f->names, f->cap * sizeof(*f->names));
	}
	f->names[f->nnames++] = e->s;
	return e->id;
}

/* The child of parent named name (created empty), with w added to it. */
static struct node *step(struct node *parent, uint32_t name, const uint64_t *w)
{
	struct node *c;
	HASH_FIND(hh, parent->children, &name, sizeof(name), c);
	if (!c) {
		c = gt_xcalloc(1, sizeof(*c));
		c->name = name;
		HASH_ADD(hh, parent->children, name, sizeof(c->name), c);
	}
	for (int i = 0; i < W_COUNT; i++)
		c->w[i] += w[i];
	return c;
}

/* "101 git pack-objects": the root frame of an image, as --folded's. */
static uint32_t image_name(struct flame *f, const struct gt_image *img)
{
	const char *name = img->argc ? img->argv[0] : img->exe ? img->exe : "?";
	const char *slash = strrchr(name, '/');
	name = slash ? slash + 1 : name;
	const char *arg = img->argc > 1 ? img->argv[1] : "";
	size_t n = strlen(name) + strlen(arg) + 32;
	char *buf = gt_xmalloc(n);
	snprintf(buf, n, "%u %s%s%s", (unsigned)img->pid, name, *arg ? " " : "", arg);
	uint32_t id = intern(f, buf);
	free(buf);
	return id;
}

static void add_proc(struct flame *f, const struct gt_proc *p)
{
	uint32_t root_name = image_name(f, p->img);
	for (size_t k = 0; k < p->nstacks; k++) {
		const struct gt_proc_stack *st = &p->stacks[k];
		const struct gt_stack_counts *c = st->counts;
		uint64_t w[W_COUNT] = {c->allocations, c->bytes, c->temporary};
		if (!c->allocations)
			continue;
		for (int i = 0; i < W_COUNT; i++)
			f->root.w[i] += w[i];
		struct node *at = step(&f->root, root_name, w);
		for (size_t i = st->nfunctions; i > 0; i--)
			at = step(at, intern(f, st->functions[i - 1]), w);
	}
}

static int heavier(const void *a, const void *b)
{
	const struct node *x = *(const struct node *const *)a;
	const struct node *y = *(const struct node *const *)b;
	if (x->w[W_ALLOCATIONS] != y->w[W_ALLOCATIONS])
		return x->w[W_ALLOCATIONS] < y->w[W_ALLOCATIONS] ? 1 : -1;
	if (x->w[W_BYTES] != y->w[W_BYTES])
		return x->w[W_BYTES] < y->w[W_BYTES] ? 1 : -1;
	return x->name < y->name ? -1 : x->name > y->name;
}

/* Frees n and its subtree. */
static void drop(struct node *n)
{
	struct node *c, *tmp;
	HASH_ITER(hh, n->children, c, tmp)
	{
		HASH_DEL(n->children, c);
		drop(c);
	}
	free(n);
}

static int visible(const struct node *n, const struct node *root)
{
	for (int i = 0; i < W_COUNT; i++)
		if (n->w[i] && n->w[i] >= root->w[i] / GT_FLAME_MIN_SHARE)
			return 1;
	return 0;
}

/*
 * Writes n and its visible subtree in preorder and frees n's descendants.
 * Names are numbered in order of first use here, so names only pruned
 * frames had are not written.
 */
static void emit(struct flame *f, struct gt_json *j, struct node *n, uint64_t depth)
{
	const struct node *root = &f->root;
	if (f->renamed[n->name] == UINT32_MAX) {
		f->renamed[n->name] = (uint32_t)f->nused;
		f->used[f->nused++] = n->name;
	}
	gt_json_uint(j, depth);
	gt_json_uint(j, f->renamed[n->name]);
	for (int i = 0; i < W_COUNT; i++)
		gt_json_uint(j, n->w[i]);
	size_t nc = HASH_COUNT(n->children);
	if (!nc)
		return;
	struct node **v = gt_xcalloc(nc, sizeof(*v));
	size_t i = 0;
	struct node *c, *tmp;
	HASH_ITER(hh, n->children, c, tmp)
	{
		HASH_DEL(n->children, c);
		v[i++] = c;
	}
	qsort(v, nc, sizeof(*v), heavier);
	for (i = 0; i < nc; i++) {
		if (visible(v[i], root)) {
			emit(f, j, v[i], depth + 1);
			free(v[i]);
		} else {
			drop(v[i]);
		}
	}
	free(v);
}

void gt_html_flame(struct gt_json *j, const struct gt_summary *s)
{
	if (!s->keep_stacks)
		BUG("a flame graph of a summary without its stacks");
	struct flame f;
	memset(&f, 0, sizeof(f));
	f.root.name = intern(&f, "all");
	for (size_t i = 0; i < s->n; i++)
		add_proc(&f, &s->procs[i]);

	gt_json_key(j, "flame");
	gt_json_begin_object(j);
	gt_json_key(j, "nodes");
	gt_json_begin_array(j);
	f.renamed = gt_xcalloc(f.nnames, sizeof(*f.renamed));
	memset(f.renamed, 0xff, f.nnames * sizeof(*f.renamed));
	f.used = gt_xcalloc(f.nnames, sizeof(*f.used));
	emit(&f, j, &f.root, 0);
	gt_json_end_array(j);
	gt_json_key(j, "names");
	gt_json_begin_array(j);
	for (size_t i = 0; i < f.nused; i++)
		gt_json_str(j, f.names[f.used[i]]);
	gt_json_end_array(j);
	gt_json_end_object(j);

	free(f.renamed);
	free(f.used);
	struct name *e, *tmp;
	HASH_ITER(hh, f.by_str, e, tmp)
	{
		HASH_DEL(f.by_str, e);
		free(e->s);
		free(e);
	}
	free(f.names);
}
