/*
 * Stack symbolization and site selection. See symbolize.h.
 */
#include "symbolize.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "die.h"

/* Frames that never name a site: the C library's allocator and its
 * string-duplicating callers (allocator_functions), and git's allocation
 * wrappers (wrapper_functions; the site is whoever called them). */
static const char *const allocator_functions[] = {
	"malloc",	  "calloc",	    "realloc",	       "reallocarray", "free",
	"posix_memalign", "aligned_alloc",  "memalign",	       "valloc",       "pvalloc",
	"__libc_malloc",  "__libc_calloc",  "__libc_realloc",  "__libc_free",  "__libc_memalign",
	"__libc_valloc",  "__libc_pvalloc", "_int_malloc",     "_int_realloc", "_int_memalign",
	"_mid_memalign",  "tcache_init",    "malloc_hook_ini", "strdup",       "__strdup",
	"strndup",	  "__strndup",
};

/* git's wrappers (wrapper.c, strbuf.c). */
static const char *const wrapper_functions[] = {
	"xmalloc",	 "xcalloc",	    "xrealloc",	     "xstrdup",	    "xstrndup",
	"xmemdupz",	 "do_xmalloc",	    "do_xmallocz",   "xmallocz",    "xmallocz_gently",
	"xstrfmt",	 "xstrvfmt",	    "strbuf_grow",   "strbuf_add",  "strbuf_addbuf",
	"strbuf_addch",	 "strbuf_addchars", "strbuf_addstr", "strbuf_addf", "strbuf_vaddf",
	"strbuf_insert", "strbuf_splice",   "strbuf_attach",
};

/* git's generic helpers, by name prefix: functions many callers share, so
 * that naming one says little about who allocated. A site in one of them
 * (or in a library) is shown with the program's caller (gt_program_caller).
 * By name, not by source file, so that a stripped binary's .dynsym names
 * qualify too. */
static const char *const helper_prefixes[] = {
	"strbuf_",     "string_list_", "strvec_",	"strmap_",  "strintmap_", "hashmap_",
	"oidmap_",     "oidset_",      "oid_array_",	"oidtree_", "mem_pool_",  "git_deflate",
	"git_inflate", "read_in_full", "write_in_full", "xread",    "xwrite",	  "xpread",
	"xsnprintf",   "xopen",	       "xfdopen",	"xgetcwd",
};

const char gt_stripped_advice[] =
	"sites there show module+offset, or the name of an exported function from the dynamic "
	"symbol table; for names and lines, any of: set DEBUGINFOD_URLS (e.g. "
	"https://debuginfod.debian.net) for gittrace-report, and libdw fetches the debug info "
	"by build-id; install the distribution's debug package (Debian: git-dbgsym from the "
	"debian-debug archive); trace a git built with symbols "
	"(examples/build-git-with-symbols.sh); see docs/report.md#symbols";

struct gt_symbolizer {
	struct gt_symbols *syms;
	char **stripped;
	size_t nstripped;
};

struct gt_symbolizer *gt_symbolizer_new(struct gt_symbols *syms)
{
	struct gt_symbolizer *s = gt_xcalloc(1, sizeof(*s));
	s->syms = syms;
	return s;
}

void gt_symbolizer_free(struct gt_symbolizer *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nstripped; i++)
		free(s->stripped[i]);
	free(s->stripped);
	free(s);
}

static int in_table(const char *name, const char *const *table, size_t n)
{
	for (size_t i = 0; name && i < n; i++)
		if (!strcmp(name, table[i]))
			return 1;
	return 0;
}

#define IN_TABLE(name, t) in_table(name, t, sizeof(t) / sizeof(*t))

int gt_is_allocator_function(const char *name)
{
	return IN_TABLE(name, allocator_functions);
}

int gt_is_skipped_function(const char *name)
{
	return IN_TABLE(name, allocator_functions) || IN_TABLE(name, wrapper_functions);
}

int gt_is_helper_function(const char *name)
{
	if (!name)
		return 0;
	for (size_t i = 0; i < sizeof(helper_prefixes) / sizeof(*helper_prefixes); i++)
		if (!strncmp(name, helper_prefixes[i], strlen(helper_prefixes[i])))
			return 1;
	return gt_is_skipped_function(name);
}

size_t gt_program_caller(const struct gt_frame *f, size_t n)
{
	if (!n || (f[0].in_program && !gt_is_helper_function(f[0].function)))
		return n;
	for (size_t i = 1; i < n; i++)
		if (f[i].in_program && !gt_is_helper_function(f[i].function))
			return i;
	return n;
}

static const char *basename_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

static void note_stripped(struct gt_symbolizer *s, const char *path)
{
	for (size_t i = 0; i < s->nstripped; i++)
		if (!strcmp(s->stripped[i], path))
			return;
	s->stripped = gt_xrealloc(s->stripped, (s->nstripped + 1) * sizeof(char *));
	s->stripped[s->nstripped++] = gt_xstrndup(path, strlen(path));
}

static char *offset_name(const char *module, uint64_t off)
{
	char buf[64];
	snprintf(buf, sizeof(buf), "+0x%" PRIx64, off);
	size_t n = strlen(module) + strlen(buf) + 1;
	char *out = gt_xmalloc(n);
	snprintf(out, n, "%s%s", module, buf);
	return out;
}

static char *dup_or_null(const char *s)
{
	return s ? gt_xstrndup(s, strlen(s)) : NULL;
}

#define MAX_INLINE 16

size_t gt_symbolize_stack(struct gt_symbolizer *s, const struct gt_image *img,
			  const struct gt_stack *st, struct gt_frame **out)
{
	size_t cap = st->depth ? st->depth : 1, n = 0;
	struct gt_frame *f = gt_xcalloc(cap, sizeof(*f));
	for (size_t i = 0; i < st->depth; i++) {
		uint64_t ip = st->ips[i];
		const struct gt_module *mod = gt_image_module(img, ip);
		struct gt_frame_info info[MAX_INLINE];
		int k = 0;
		if (mod && s->syms) {
			int status = gt_symbols_module_status(s->syms, mod->path, mod->build_id,
							      mod->build_id_len);
			if (status == 0)
				note_stripped(s, mod->path);
			k = gt_symbols_lookup(s->syms, mod->path, mod->build_id, mod->build_id_len,
					      ip - mod->base, info, MAX_INLINE);
		}
		if (k < 1) {
			k = 1;
			memset(info, 0, sizeof(info[0]));
		}
		if (n + (size_t)k > cap) {
			cap = 2 * (n + (size_t)k);
			f = gt_xrealloc(f, cap * sizeof(*f));
		}
		for (int j = 0; j < k; j++) {
			struct gt_frame *fr = &f[n++];
			const char *modname = mod ? basename_of(mod->path) : NULL;
			if (info[j].function)
				fr->function = dup_or_null(info[j].function);
			else if (mod)
				fr->function = offset_name(modname, ip - mod->base);
			else
				fr->function = gt_xstrndup("?", 1);
			fr->file = dup_or_null(info[j].file);
			fr->line = info[j].line;
			fr->module = dup_or_null(modname);
			fr->in_program = mod && img->exe && !strcmp(mod->path, img->exe);
		}
	}
	*out = f;
	return n;
}

size_t gt_program_frame(const struct gt_frame *f, size_t n)
{
	size_t i = 0;
	while (i < n && gt_is_allocator_function(f[i].function))
		i++;
	return i;
}

void gt_frames_free(struct gt_frame *f, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(f[i].function);
		free(f[i].file);
		free(f[i].module);
	}
	free(f);
}

static int is_tracer_module(const char *module)
{
	return module && !strncmp(module, "libgittrace", 11);
}

size_t gt_site_frame(const struct gt_frame *f, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!gt_is_skipped_function(f[i].function) && !is_tracer_module(f[i].module))
			return i;
	return n;
}

const char *const *gt_symbolizer_stripped(const struct gt_symbolizer *s, size_t *count)
{
	*count = s->nstripped;
	return (const char *const *)s->stripped;
}
