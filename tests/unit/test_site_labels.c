/*
 * Unit test: the labels of a table of sites (site_labels.h) read apart
 * wherever the sites' stacks do, name only the frames needed, keep
 * function and caller first, and do not depend on the rows' order.
 */
#include <stdio.h>
#include <string.h>

#include "../check.h"
#include "site_labels.h"

#define MAX_FRAMES 8
#define MAX_ROWS   6

/* A site from its frames, innermost first: "name" or "name:line". */
struct test_site {
	struct gt_site site;
	struct gt_frame frames[MAX_FRAMES];
	char names[256];
};

static void make(struct test_site *t, size_t caller, const char *frames)
{
	memset(t, 0, sizeof(*t));
	snprintf(t->names, sizeof(t->names), "%s", frames);
	for (char *name = strtok(t->names, " "); name && t->site.nframes < MAX_FRAMES;
	     name = strtok(NULL, " ")) {
		struct gt_frame *f = &t->frames[t->site.nframes++];
		char *colon = strchr(name, ':');
		if (colon) {
			*colon = '\0';
			f->file = "x.c";
			f->line = colon[1] - '0';
		}
		f->function = name;
	}
	t->site.frames = t->frames;
	t->site.function = t->site.nframes ? t->frames[0].function : "?";
	t->site.caller = caller < t->site.nframes ? caller : t->site.nframes;
}

/* The label as it prints: names, "…" where it skips frames, ":line" where located. */
static const char *read_label(const struct gt_site *s, const struct gt_site_label *l)
{
	static char out[MAX_ROWS][256];
	static size_t next;
	char *o = out[next++ % MAX_ROWS];
	size_t len = 0;
	o[0] = '\0';
	for (size_t i = 0; i < l->n; i++) {
		const struct gt_frame *f = &s->frames[l->at[i]];
		len += (size_t)snprintf(o + len, sizeof(out[0]) - len, "%s%s%s", i ? " " : "",
					gt_site_label_skips(s, l, i) ? "… " : "", f->function);
		if (f->file && gt_site_label_located(l, i))
			len += (size_t)snprintf(o + len, sizeof(out[0]) - len, ":%d", f->line);
	}
	return o;
}

static struct test_site t[MAX_ROWS];
static struct gt_site_label l[MAX_ROWS];

/* Labels the first n sites as one table, in the order given by order[]. */
static void label_in(size_t n, const size_t *order)
{
	const struct gt_site *rows[MAX_ROWS];
	struct gt_site_label got[MAX_ROWS];
	for (size_t i = 0; i < n; i++)
		rows[i] = &t[order[i]].site;
	gt_site_labels(rows, n, got);
	for (size_t i = 0; i < n; i++)
		l[order[i]] = got[i];
}

/* Labels the first n sites in their order, then reversed: the labels must agree. */
static void label(size_t n)
{
	size_t order[MAX_ROWS];
	struct gt_site_label first[MAX_ROWS];
	for (size_t i = 0; i < n; i++)
		order[i] = n - 1 - i;
	label_in(n, order);
	memcpy(first, l, sizeof(first));
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	label_in(n, order);
	for (size_t i = 0; i < n; i++)
		CHECK(!strcmp(read_label(&t[i].site, &first[i]), read_label(&t[i].site, &l[i])));
}

int main(void)
{
	/* Sites that differ in their first frame need no more. */
	make(&t[0], MAX_FRAMES, "alpha main");
	make(&t[1], MAX_FRAMES, "beta main");
	label(2);
	CHECK_STR(read_label(&t[0].site, &l[0]), "alpha");
	CHECK_STR(read_label(&t[1].site, &l[1]), "beta");

	/* A wrapper reached from two places: the frame where they part. */
	make(&t[0], MAX_FRAMES, "xmalloc read_tree walk main");
	make(&t[1], MAX_FRAMES, "xmalloc parse_commit walk main");
	make(&t[2], MAX_FRAMES, "other main");
	label(3);
	CHECK_STR(read_label(&t[0].site, &l[0]), "xmalloc read_tree");
	CHECK_STR(read_label(&t[1].site, &l[1]), "xmalloc parse_commit");
	CHECK_STR(read_label(&t[2].site, &l[2]), "other");

	/* Parting deep: the shared frames are skipped. */
	make(&t[0], MAX_FRAMES, "xmalloc f g h main");
	make(&t[1], MAX_FRAMES, "xmalloc f g k main");
	label(2);
	CHECK_STR(read_label(&t[0].site, &l[0]), "xmalloc … h");
	CHECK_STR(read_label(&t[1].site, &l[1]), "xmalloc … k");

	/* Two partings: one frame each would read "xmalloc … q" twice. */
	make(&t[0], MAX_FRAMES, "xmalloc a b p q main");
	make(&t[1], MAX_FRAMES, "xmalloc a b p r main");
	make(&t[2], MAX_FRAMES, "xmalloc a c p q main");
	make(&t[3], MAX_FRAMES, "xmalloc a c p r main");
	label(4);
	CHECK_STR(read_label(&t[0].site, &l[0]), "xmalloc … b … q");
	CHECK_STR(read_label(&t[1].site, &l[1]), "xmalloc … b … r");
	CHECK_STR(read_label(&t[2].site, &l[2]), "xmalloc … c … q");
	CHECK_STR(read_label(&t[3].site, &l[3]), "xmalloc … c … r");

	/*
	 * A site in a library reads with the program's caller (frame 2 here,
	 * past a helper at 1), with no "…" between them; then where it parts.
	 */
	make(&t[0], 2, "inflateInit2_ git_inflate_init unpack_entry read_object main");
	make(&t[1], 2, "inflateInit2_ git_inflate_init unpack_entry show_log main");
	label(2);
	CHECK_STR(read_label(&t[0].site, &l[0]), "inflateInit2_ unpack_entry read_object");
	CHECK_STR(read_label(&t[1].site, &l[1]), "inflateInit2_ unpack_entry show_log");
	make(&t[0], 2, "inflateInit2_ git_inflate_init unpack_entry main");
	label(1);
	CHECK_STR(read_label(&t[0].site, &l[0]), "inflateInit2_ unpack_entry");

	/* Stacks that part only in the helpers between the function and its caller. */
	make(&t[0], 2, "f h1 C m");
	make(&t[1], 2, "f h2 C m");
	label(2);
	CHECK_STR(read_label(&t[0].site, &l[0]), "f h1 C");
	CHECK_STR(read_label(&t[1].site, &l[1]), "f h2 C");

	/* Stacks that part only in the line of a call: the line is named. */
	make(&t[0], MAX_FRAMES, "new_node:8 main:5 start");
	make(&t[1], MAX_FRAMES, "new_node:8 main:6 start");
	label(2);
	CHECK_STR(read_label(&t[0].site, &l[0]), "new_node main:5");
	CHECK_STR(read_label(&t[1].site, &l[1]), "new_node main:6");

	/* Stacks that part only in the line of the site's own call: it is shown. */
	make(&t[0], 1, "f:1 C:3 m");
	make(&t[1], 1, "f:2 C:3 m");
	label(2);
	CHECK_STR(read_label(&t[0].site, &l[0]), "f:1 C:3");
	CHECK_STR(read_label(&t[1].site, &l[1]), "f:2 C:3");

	/* Rows with and without a caller in one table (a review's case). */
	make(&t[0], MAX_FRAMES, "a b c x m");
	make(&t[1], MAX_FRAMES, "a b c y m");
	make(&t[2], MAX_FRAMES, "a b d m");
	make(&t[3], 2, "a zz c z m");
	label(4);
	for (size_t i = 0; i < 4; i++)
		for (size_t j = i + 1; j < 4; j++)
			CHECK(strcmp(read_label(&t[i].site, &l[i]), read_label(&t[j].site, &l[j])));

	/* A stack that another begins with reads as itself; the longer one goes on. */
	make(&t[0], MAX_FRAMES, "xmalloc f");
	make(&t[1], MAX_FRAMES, "xmalloc f main");
	label(2);
	CHECK_STR(read_label(&t[0].site, &l[0]), "xmalloc");
	CHECK_STR(read_label(&t[1].site, &l[1]), "xmalloc … main");

	/* Stacks alike frame by frame read alike; no frames, no label. */
	make(&t[0], MAX_FRAMES, "xmalloc f main");
	make(&t[1], MAX_FRAMES, "xmalloc f main");
	make(&t[2], MAX_FRAMES, "");
	label(3);
	CHECK_STR(read_label(&t[0].site, &l[0]), "xmalloc");
	CHECK_STR(read_label(&t[1].site, &l[1]), "xmalloc");
	CHECK(l[2].n == 0);

	/* Three rows, one parting nearer than the other. */
	make(&t[0], MAX_FRAMES, "xmalloc c p main");
	make(&t[1], MAX_FRAMES, "xmalloc b p main");
	make(&t[2], MAX_FRAMES, "xmalloc b q main");
	label(3);
	CHECK_STR(read_label(&t[0].site, &l[0]), "xmalloc c");
	CHECK_STR(read_label(&t[1].site, &l[1]), "xmalloc b p");
	CHECK_STR(read_label(&t[2].site, &l[2]), "xmalloc b q");
	return check_result("site_labels");
}
