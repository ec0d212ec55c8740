/*
 * The HTML report's flame graph: every image's allocating stacks merged
 * into one tree of frames, with three weights per node (allocations,
 * bytes, temporary allocations). The stacks are the summary's
 * (gt_proc.stacks), as --folded prints them (report_folded.c): the
 * allocator's own frames dropped, the image as the root frame, outermost
 * first.
 *
 * The tree is built image by image as the summary retires them
 * (gt_summary_on_stacks), so memory follows what the page will show, not
 * every stack of the trace: a subtree under 1/GT_FLAME_MIN_SHARE of the
 * root by every weight is left out (its weight stays in its parent's), as
 * it would be narrower than a pixel unless zoomed in tens of times. Each
 * image is its own subtree, so its nodes' weights are final once it is
 * added; the root only grows, so a node below the share when its image is
 * added stays below it. Pruning then is the same as pruning at the end.
 * What is left of an image is kept flat, in the order it is written: a
 * hash table per node would take ten times the room of the nodes. Two
 * images with the same label (a pid reused for the same command) stay two
 * roots, as two processes.
 *
 * Encoding, compact because a repack has thousands of stacks:
 *   "flame": {"nodes": [depth, name, allocations, bytes, temporary, ...],
 *             "names": [str...]}
 * nodes is a flat preorder walk, five numbers per node; name indexes names;
 * the first node is the root (depth 0, "all"). A node's weights include its
 * children's; children come heaviest by allocations first, then by bytes,
 * then by name, then (images) in the order they were added. A flat list, not
 * nested arrays: stacks are deeper than the JSON writer nests.
 */
#include "report_html.h"
#include "report.h"

#include <stdlib.h>
#include <string.h>
#include <uthash.h>

#include "command_label.h"
#include "die.h"

enum { W_ALLOCATIONS, W_BYTES, W_TEMPORARY, W_COUNT };

#define GT_FLAME_MIN_SHARE 100000

/* A node of the image being added. */
struct node {
	/* Key among its siblings: a function name interned by the symbolizer
	 * (equal names, equal pointers), or the image's label. */
	const char *name;
	uint64_t w[W_COUNT];
	struct node *children; /* uthash by name */
	UT_hash_handle hh;
};

/* A kept node of an image, in preorder, children heaviest first. */
struct flat {
	const char *name;
	uint64_t w[W_COUNT];
	size_t depth; /* 0: the image's root */
};

/* What an image adds to the graph: its root frame's label and its nodes. */
struct image {
	struct flat *nodes; /* nodes[0] is the image's root, named label */
	size_t n, cap;
	size_t order; /* among the images added */
	char label[];
};

struct gt_flame {
	uint64_t root[W_COUNT]; /* "all": the weights of every image */
	struct image **images;
	size_t nimages, cap;
};

struct gt_flame *gt_flame_new(void)
{
	return gt_xcalloc(1, sizeof(struct gt_flame));
}

/* a + b, or UINT64_MAX: a crafted trace's byte counts must not wrap the
 * root's sums, which pruning as images are added relies on only growing. */
static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* The child of parent named name (created empty), with w added to it. */
static struct node *step(struct node *parent, const char *name, const uint64_t *w)
{
	struct node *c;
	HASH_FIND(hh, parent->children, &name, sizeof(name), c);
	if (!c) {
		c = gt_xcalloc(1, sizeof(*c));
		c->name = name;
		HASH_ADD(hh, parent->children, name, sizeof(c->name), c);
	}
	for (int i = 0; i < W_COUNT; i++)
		c->w[i] = add_sat(c->w[i], w[i]);
	return c;
}

/* Frees n's descendants. */
static void drop_children(struct node *n)
{
	struct node *c, *tmp;
	HASH_ITER(hh, n->children, c, tmp)
	{
		HASH_DEL(n->children, c);
		drop_children(c);
		free(c);
	}
}

static int visible(const uint64_t *w, const uint64_t *root)
{
	for (int i = 0; i < W_COUNT; i++)
		if (w[i] && w[i] >= root[i] / GT_FLAME_MIN_SHARE)
			return 1;
	return 0;
}

/* Heavier by allocations, then bytes, then name; 0 only for the same name. */
static int heavier(const uint64_t *wx, const char *x, const uint64_t *wy, const char *y)
{
	for (int i = W_ALLOCATIONS; i <= W_BYTES; i++)
		if (wx[i] != wy[i])
			return wx[i] < wy[i] ? 1 : -1;
	return strcmp(x, y);
}

static int heavier_node(const void *a, const void *b)
{
	const struct node *x = *(const struct node *const *)a;
	const struct node *y = *(const struct node *const *)b;
	return heavier(x->w, x->name, y->w, y->name);
}

/*
 * Appends n's visible subtree under root to e in preorder, heaviest child
 * first, and frees n's descendants.
 */
static void flatten(struct image *e, struct node *n, size_t depth, const uint64_t *root)
{
	if (e->n == e->cap) {
		e->cap = e->cap ? 2 * e->cap : 16;
		e->nodes = gt_xrealloc(e->nodes, e->cap * sizeof(*e->nodes));
	}
	struct flat *f = &e->nodes[e->n++];
	f->name = n->name;
	memcpy(f->w, n->w, sizeof(f->w));
	f->depth = depth;
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
	qsort(v, nc, sizeof(*v), heavier_node);
	for (i = 0; i < nc; i++) {
		if (visible(v[i]->w, root))
			flatten(e, v[i], depth + 1, root);
		else
			drop_children(v[i]);
		free(v[i]);
	}
	free(v);
}

/* "101 git pack-objects": the root frame of an image, as --folded's. */
static struct image *new_image(const struct gt_image *img)
{
	const char *name, *arg;
	gt_program_words(img, &name, &arg);
	size_t n = strlen(name) + strlen(arg) + 32;
	struct image *e = gt_xcalloc(1, sizeof(*e) + n);
	snprintf(e->label, n, "%u %s%s%s", (unsigned)img->pid, name, *arg ? " " : "", arg);
	return e;
}

void gt_flame_add(struct gt_flame *f, const struct gt_proc *p)
{
	struct node top = {0};
	struct image *e = new_image(p->img);
	top.name = e->label;
	for (size_t k = 0; k < p->nstacks; k++) {
		const struct gt_proc_stack *st = &p->stacks[k];
		const struct gt_stack_counts *c = st->counts;
		uint64_t w[W_COUNT] = {c->allocations, c->bytes, c->temporary};
		if (!c->allocations)
			continue;
		struct node *at = &top;
		for (int i = 0; i < W_COUNT; i++)
			at->w[i] = add_sat(at->w[i], w[i]);
		for (size_t i = st->nfunctions; i > 0; i--)
			at = step(at, st->functions[i - 1], w);
	}
	for (int i = 0; i < W_COUNT; i++)
		f->root[i] = add_sat(f->root[i], top.w[i]);
	if (!visible(top.w, f->root)) {
		drop_children(&top);
		free(e);
		return;
	}
	flatten(e, &top, 0, f->root);
	if (f->nimages == f->cap) {
		f->cap = f->cap ? 2 * f->cap : 64;
		f->images = gt_xrealloc(f->images, f->cap * sizeof(*f->images));
	}
	e->order = f->nimages;
	f->images[f->nimages++] = e;
}

void gt_flame_free(struct gt_flame *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->nimages; i++) {
		free(f->images[i]->nodes);
		free(f->images[i]);
	}
	free(f->images);
	free(f);
}

/* Images heaviest first; of two alike, the one added first. */
static int heavier_image(const void *a, const void *b)
{
	const struct image *x = *(const struct image *const *)a;
	const struct image *y = *(const struct image *const *)b;
	int c = heavier(x->nodes[0].w, x->label, y->nodes[0].w, y->label);
	if (c)
		return c;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* The page's names, numbered in order of first use. */
struct name {
	const char *s; /* key */
	uint64_t index;
	UT_hash_handle hh;
};

struct writer {
	struct gt_json *j;
	struct name *names;
	const char **list; /* by index */
	size_t nlist, cap;
};

static uint64_t name_index(struct writer *w, const char *s)
{
	struct name *e;
	HASH_FIND_STR(w->names, s, e);
	if (e)
		return e->index;
	e = gt_xcalloc(1, sizeof(*e));
	e->s = s;
	e->index = w->nlist;
	HASH_ADD_KEYPTR(hh, w->names, e->s, strlen(e->s), e);
	if (w->nlist == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 256;
		w->list = gt_xrealloc(w->list, w->cap * sizeof(*w->list));
	}
	w->list[w->nlist++] = s;
	return e->index;
}

static void write_node(struct writer *w, uint64_t depth, const char *name, const uint64_t *weights)
{
	gt_json_uint(w->j, depth);
	gt_json_uint(w->j, name_index(w, name));
	for (int i = 0; i < W_COUNT; i++)
		gt_json_uint(w->j, weights[i]);
}

void gt_html_flame(struct gt_json *j, const struct gt_flame *f)
{
	struct writer w = {j, NULL, NULL, 0, 0};
	gt_json_key(j, "flame");
	gt_json_begin_object(j);
	gt_json_key(j, "nodes");
	gt_json_begin_array(j);
	write_node(&w, 0, "all", f->root);
	struct image **v = gt_xcalloc(f->nimages ? f->nimages : 1, sizeof(*v));
	if (f->nimages) { /* images is NULL until the first, and memcpy's must not be */
		memcpy(v, f->images, f->nimages * sizeof(*v));
		qsort(v, f->nimages, sizeof(*v), heavier_image);
	}
	for (size_t i = 0; i < f->nimages; i++) {
		const struct image *e = v[i];
		/* A node the whole trace makes invisible hides its subtree. */
		for (size_t k = 0; k < e->n; k++) {
			const struct flat *n = &e->nodes[k];
			if (!visible(n->w, f->root)) {
				while (k + 1 < e->n && e->nodes[k + 1].depth > n->depth)
					k++;
				continue;
			}
			write_node(&w, 1 + n->depth, n->name, n->w);
		}
	}
	free(v);
	gt_json_end_array(j);
	gt_json_key(j, "names");
	gt_json_begin_array(j);
	for (size_t i = 0; i < w.nlist; i++)
		gt_json_str(j, w.list[i]);
	gt_json_end_array(j);
	gt_json_end_object(j);

	struct name *e, *tmp;
	HASH_ITER(hh, w.names, e, tmp)
	{
		HASH_DEL(w.names, e);
		free(e);
	}
	free(w.list);
}
