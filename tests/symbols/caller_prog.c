/*
 * caller_prog: allocates from three kinds of site, for caller.sh to check
 * which sites the report names the program's own caller beside:
 *   - inside zlib (compress2 -> deflateInit_ -> deflateInit2_, which
 *     allocates its state and windows), called from compress_one: a
 *     library site, caller compress_one;
 *   - inside strbuf_dup, named like one of git's generic helpers, called
 *     from make_label: a helper site, caller make_label; reached by two
 *     stacks (main -> make_label 20 times, main -> label_again ->
 *     make_label once), one row of the table by caller in the program,
 *     the heaviest, so that --top 1 lists it with one of its stacks;
 *   - plain_alloc itself, through xmalloc (named like git's allocation
 *     wrapper, which never names a site): the program's own site, no
 *     caller beside it; the folded stacks keep the wrapper.
 * zlib is dlopen'ed so that building needs no zlib headers; its functions
 * are the ones git calls. Built -O0 -fno-inline so each function is a frame.
 *
 * usage: caller_prog    exits 0, or 1 if zlib cannot be loaded
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* zlib's compress2 (zlib.h: Bytef *, uLongf *, const Bytef *, uLong, int). */
typedef int compress2_fn(unsigned char *, unsigned long *, const unsigned char *, unsigned long,
			 int);

static volatile void *sink;

static int compress_one(compress2_fn *compress2)
{
	unsigned char in[4096], out[8192];
	unsigned long out_len = sizeof(out);
	memset(in, 'g', sizeof(in));
	return compress2(out, &out_len, in, sizeof(in), 6);
}

/* Not static and not inlined: a helper many callers would share. */
char *strbuf_dup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = malloc(n);
	if (p)
		memcpy(p, s, n);
	return p;
}

static void make_label(void)
{
	char *label = strbuf_dup("caller_prog");
	sink = label;
	free(label);
}

/* make_label's second stack. */
static void label_again(void)
{
	make_label();
}

/* Named like git's wrapper (wrapper.c). */
static void *xmalloc(size_t size)
{
	return malloc(size);
}

static void plain_alloc(void)
{
	void *p = xmalloc(12345);
	sink = p;
	free(p);
}

int main(void)
{
	void *z = dlopen("libz.so.1", RTLD_NOW);
	compress2_fn *compress2 = z ? (compress2_fn *)dlsym(z, "compress2") : NULL;
	if (!compress2) {
		fprintf(stderr, "caller_prog: cannot load zlib's compress2\n");
		return 1;
	}
	for (int i = 0; i < 3; i++)
		if (compress_one(compress2) != 0)
			return 1;
	for (int i = 0; i < 20; i++)
		make_label();
	label_again();
	plain_alloc();
	dlclose(z);
	return 0;
}
