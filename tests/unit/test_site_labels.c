/*
 * Unit test: the labels of a table of sites (site_labels.h) read apart
 * wherever the sites' frames do, name only the frames needed, and keep
 * function and caller first.
 */
#include <stdio.h>
#include <string.h>

#include "../check.h"
#include "site_labels.h"

#define MAX_FRAMES 8

/* A site from its frames' names, innermost first, with its caller at index caller. */
struct test_site {
	struct gt_site site;
	struct gt_frame frames[MAX_FRAMES];
};

static void make(struct test_site *t, size_t caller, const char *names)
{
	static char buf[16][128];
	static size_t next;
	char *copy = buf[next++ % 16];
	snprintf(copy, sizeof(buf[0]), "%s", names);
	memset(t, 0, sizeof(*t));
	for (char *name = strtok(copy, " "); name && t->site.nframes < MAX_FRAMES;
	     name = strtok(NULL, " "))
		t->frames[t->site.nframes++].function = name;
	t->site.frames = t->frames;
	t->site.function = t->site.nframes ? t->frames[0].function : "?";
	t->site.caller = caller < t->site.nframes ? caller : t->site.nframes;
}

/* The label as the names it reads, "…" where it skips frames. */
static const char *read_label(const struct gt_site *s, const struct gt_site_label *l)
{
	static char out[4][256];
	static size_t next;
	char *o = out[next++ % 4];
	size_t len = 0;
	o[0] = '\0';
	for (size_t i = 0; i < l->n; i++) {
		int skip = i && l->at[i] > l->at[i - 1] + 1;
		len += (size_t)snprintf(o + len, sizeof(out[0]) - len, "%s%s%s", i ? " " : "",
					skip ? "… " : "",
					gt_site_sequence_frame(s, l->at[i])->function);
	}
	return o;
}

/* Labels the n sites as one table. */
static void label(struct test_site *t, size_t n, struct gt_site_label *labels)
{
	const struct gt_site *rows[8];
	for (size_t i = 0; i < n; i++)
		rows[i] = &t[i].site;
	gt_site_labels(rows, n, labels);
}

int main(void)
{
	struct test_site t[8];
	struct gt_site_label l[8];

	/* Sites that differ in their first frame need no more. */
	make(&t[0], MAX_FRAMES, "alpha main");
	make(&t[1], MAX_FRAMES, "beta main");
	label(t, 2, l);
	CHECK_STR(read_label(&t[0].site, &l[0]), "alpha");
	CHECK_STR(read_label(&t[1].site, &l[1]), "beta");

	/* A wrapper reached from two places: the frame where they part. */
	make(&t[0], MAX_FRAMES, "xmalloc read_tree walk main");
	make(&t[1], MAX_FRAMES, "xmalloc parse_commit walk main");
	make(&t[2], MAX_FRAMES, "other main");
	label(t, 3, l);
	CHECK_STR(read_label(&t[0].site, &l[0]), "xmalloc read_tree");
	CHECK_STR(read_label(&t[1].site, &l[1]), "xmalloc parse_commit");
	CHECK_STR(read_label(&t[2].site, &l[2]), "other");

	/* Parting deep: the shared frames are skipped. */
	make(&t[0], MAX_FRAMES, "xmalloc f g h main");
	make(&t[1], MAX_FRAMES, "xmalloc f g k main");
	label(t, 2, l);
	CHECK_STR(read_label(&t[0].site, &l[0]), "xmalloc … h");
	CHECK_STR(read_label(&t[1].site, &l[1]), "xmalloc … k");

	/*
	 * Two partings: naming only where each row leaves the others would
	 * read "xmalloc … r" twice (the rows part at b/c first, then again at
	 * q/r). A label names both frames.
	 */
	make(&t[0], MAX_FRAMES, "xmalloc a b p q main");
	make(&t[1], MAX_FRAMES, "xmalloc a b p r main");
	make(&t[2], MAX_FRAMES, "xmalloc a c p q main");
	make(&t[3], MAX_FRAMES, "xmalloc a c p r main");
	label(t, 4, l);
	CHECK_STR(read_label(&t[0].site, &l[0]), "xmalloc … b … q");
	CHECK_STR(read_label(&t[1].site, &l[1]), "xmalloc … b … r");
	CHECK_STR(read_label(&t[2].site, &l[2]), "xmalloc … c … q");
	CHECK_STR(read_label(&t[3].site, &l[3]), "xmalloc … c … r");

	/*
	 * A site in a library reads with the program's caller (frame 2 here,
	 * past a helper at 1), then the frames after the caller.
	 */
	make(&t[0], 2, "inflateInit2_ git_inflate_init unpack_entry read_object main");
	make(&t[1], 2, "inflateInit2_ git_inflate_init unpack_entry show_log main");
	label(t, 2, l);
	CHECK_STR(read_label(&t[0].site, &l[0]), "inflateInit2_ unpack_entry read_object");
	CHECK_STR(read_label(&t[1].site, &l[1]), "inflateInit2_ unpack_entry show_log");
	make(&t[0], 2, "inflateInit2_ git_inflate_init unpack_entry main");
	label(t, 1, l);
	CHECK_STR(read_label(&t[0].site, &l[0]), "inflateInit2_ unpack_entry");

	/* A stack that another begins with reads as itself; the longer one goes on. */
	make(&t[0], MAX_FRAMES, "xmalloc f");
	make(&t[1], MAX_FRAMES, "xmalloc f main");
	label(t, 2, l);
	CHECK_STR(read_label(&t[0].site, &l[0]), "xmalloc");
	CHECK_STR(read_label(&t[1].site, &l[1]), "xmalloc … main");

	/* Stacks alike by name (they differ in lines only) read alike; no frames, no label. */
	make(&t[0], MAX_FRAMES, "xmalloc f main");
	make(&t[1], MAX_FRAMES, "xmalloc f main");
	make(&t[2], MAX_FRAMES, "");
	label(t, 3, l);
	CHECK_STR(read_label(&t[0].site, &l[0]), "xmalloc");
	CHECK_STR(read_label(&t[1].site, &l[1]), "xmalloc");
	CHECK(l[2].n == 0);

	/* Order of rows does not change labels. */
	make(&t[0], MAX_FRAMES, "xmalloc c p main");
	make(&t[1], MAX_FRAMES, "xmalloc b p main");
	make(&t[2], MAX_FRAMES, "xmalloc b q main");
	label(t, 3, l);
	CHECK_STR(read_label(&t[0].site, &l[0]), "xmalloc c");
	CHECK_STR(read_label(&t[1].site, &l[1]), "xmalloc b p");
	CHECK_STR(read_label(&t[2].site, &l[2]), "xmalloc b q");
	return check_result("site_labels");
}
