/*
 * Stack symbolization and site selection. See symbolize.h.
 */
#include "symbolize.h"

#include <stdlib.h>
#include <string.h>
#include <uthash.h>

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
	"by build-id (Debian: with libdebuginfod1 installed); install the distribution's debug "
	"package (Debian: git-dbgsym from the debian-debug archive); trace a git built with "
	"symbols (examples/build-git-with-symbols.sh); see docs/report.md#symbols";

/*
 * name_role's answers, direct-mapped by the name's pointer, in front of its
 * table: every frame of every stack asks, and a table lookup walks a chain
 * of entries, a cache miss each (40% of gt_symbolize_stack's own time on a
 * trace of 8,889 processes).
 */
#define ROLE_CACHE_BITS 12
#define ROLE_CACHE	(1u << ROLE_CACHE_BITS)
struct role_slot {
	const char *name;
	unsigned role;
};

struct gt_symbolizer {
	struct gt_symbols *syms;  /* NULL: no symbolization */
	struct gt_symbols *names; /* interns every string of the frames: syms, or own */
	struct gt_symbols *own;
	const char *unknown; /* "?" */
	/* The modules seen stripped: their handles, and their distinct paths */
	const struct gt_symbols_module **stripped_sym;
	size_t nstripped_sym;
	char **stripped;
	size_t nstripped;
	struct name_role *roles; /* uthash by interned name */
	struct role_slot role_cache[ROLE_CACHE];
};

/* A function name's GT_FRAME_* bits, worked out once. */
struct name_role {
	const char *name; /* key: the interned pointer */
	unsigned role;
	UT_hash_handle hh;
};

static const char *intern(struct gt_symbolizer *s, const char *text)
{
	const char *kept = gt_symbols_intern(s->names, text);
	if (!kept)
		gt_die("out of memory (symbol names)");
	return kept;
}

struct gt_symbolizer *gt_symbolizer_new(struct gt_symbols *syms)
{
	struct gt_symbolizer *s = gt_xcalloc(1, sizeof(*s));
	s->syms = syms;
	s->names = syms;
	if (!syms) {
		s->own = s->names = gt_symbols_new();
		if (!s->own)
			gt_die("out of memory (symbol names)");
	}
	s->unknown = intern(s, "?");
	return s;
}

struct gt_symbols *gt_symbolizer_symbols(const struct gt_symbolizer *s)
{
	return s->syms;
}

void gt_symbolizer_free(struct gt_symbolizer *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nstripped; i++)
		free(s->stripped[i]);
	free(s->stripped);
	free(s->stripped_sym);
	struct name_role *e, *tmp;
	HASH_ITER(hh, s->roles, e, tmp)
	{
		HASH_DEL(s->roles, e);
		free(e);
	}
	gt_symbols_free(s->own);
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

static unsigned role_of_name(const char *name)
{
	if (IN_TABLE(name, allocator_functions))
		return GT_FRAME_ALLOCATOR | GT_FRAME_SKIPPED | GT_FRAME_HELPER;
	if (IN_TABLE(name, wrapper_functions))
		return GT_FRAME_SKIPPED | GT_FRAME_HELPER;
	for (size_t i = 0; i < sizeof(helper_prefixes) / sizeof(*helper_prefixes); i++)
		if (!strncmp(name, helper_prefixes[i], strlen(helper_prefixes[i])))
			return GT_FRAME_HELPER;
	return 0;
}

/* The role of an interned name: the lists are compared once per name. */
static unsigned name_role(struct gt_symbolizer *s, const char *name)
{
	struct role_slot *slot =
		&s->role_cache[((uintptr_t)name * 0x9E3779B97F4A7C15ull) >> (64 - ROLE_CACHE_BITS)];
	if (slot->name == name && name)
		return slot->role;
	struct name_role *e;
	HASH_FIND_PTR(s->roles, &name, e);
	if (!e) {
		e = gt_xcalloc(1, sizeof(*e));
		e->name = name;
		e->role = role_of_name(name);
		HASH_ADD_PTR(s->roles, name, e);
	}
	*slot = (struct role_slot){name, e->role};
	return e->role;
}

size_t gt_program_caller(const struct gt_frame *f, size_t n)
{
	if (!n || (f[0].in_program && !(f[0].role & GT_FRAME_HELPER)))
		return n;
	for (size_t i = 1; i < n; i++)
		if (f[i].in_program && !(f[i].role & GT_FRAME_HELPER))
			return i;
	return n;
}

static const char *basename_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

static void note_stripped(struct gt_symbolizer *s, const struct gt_symbols_module *sym,
			  const char *path)
{
	for (size_t i = 0; i < s->nstripped_sym; i++)
		if (s->stripped_sym[i] == sym)
			return;
	s->stripped_sym =
		gt_xrealloc(s->stripped_sym, (s->nstripped_sym + 1) * sizeof(*s->stripped_sym));
	s->stripped_sym[s->nstripped_sym++] = sym;
	for (size_t i = 0; i < s->nstripped; i++)
		if (!strcmp(s->stripped[i], path))
			return; /* another build of it */
	s->stripped = gt_xrealloc(s->stripped, (s->nstripped + 1) * sizeof(*s->stripped));
	s->stripped[s->nstripped++] = gt_xstrndup(path, strlen(path));
}

/*
 * "module+0xoff", interned. Formatted by hand: every frame of a stripped
 * program comes here, and snprintf took ~1,000 instructions a frame: a
 * fifth of the summary's instructions on a log trace.
 */
static const char *offset_name(struct gt_symbolizer *s, const char *module, uint64_t off)
{
	char hex[16], *digits = hex + sizeof(hex);
	do {
		*--digits = "0123456789abcdef"[off & 15];
		off >>= 4;
	} while (off);
	size_t module_len = strlen(module), ndigits = (size_t)(hex + sizeof(hex) - digits);
	size_t len = module_len + 3 + ndigits;
	char buf[256];
	char *name = len < sizeof(buf) ? buf
				       : gt_xmalloc(len + 1); /* a basename of ~240 bytes or more */
	memcpy(name, module, module_len);
	memcpy(name + module_len, "+0x", 3);
	memcpy(name + module_len + 3, digits, ndigits);
	name[len] = '\0';
	const char *kept = intern(s, name);
	if (name != buf)
		free(name);
	return kept;
}

/* What the frames of a stack in one module share: found once per stack. */
struct stack_module {
	const struct gt_module *mod;
	struct gt_symbols_module *sym; /* NULL without symbolization */
	const char *name;	       /* the path's basename, interned */
	int in_program;
	unsigned role; /* GT_FRAME_TRACER | GT_FRAME_SKIPPED for the tracer's own module */
};

/* Modules a stack's frames usually span (program, libc, a library or two). */
#define STACK_MODULES 8

static const struct stack_module *stack_module(struct gt_symbolizer *s, const struct gt_image *img,
					       const struct gt_module *mod,
					       struct stack_module *seen, size_t *nseen)
{
	for (size_t i = 0; i < *nseen; i++)
		if (seen[i].mod == mod)
			return &seen[i];
	/* Past STACK_MODULES, the last entry is reused: only slower. */
	struct stack_module *m = &seen[*nseen < STACK_MODULES ? (*nseen)++ : STACK_MODULES - 1];
	m->mod = mod;
	m->sym = NULL;
	if (s->syms) {
		m->sym = gt_symbols_module(s->syms, mod->path, mod->build_id, mod->build_id_len);
		if (gt_symbols_status(m->sym) == 0)
			note_stripped(s, m->sym, mod->path);
	}
	m->name = intern(s, basename_of(mod->path));
	m->in_program = img->exe && !strcmp(mod->path, img->exe);
	m->role = !strncmp(m->name, "libgittrace", 11) ? GT_FRAME_TRACER | GT_FRAME_SKIPPED : 0;
	return m;
}

#define MAX_INLINE 16

size_t gt_symbolize_stack(struct gt_symbolizer *s, const struct gt_image *img,
			  const struct gt_stack *st, struct gt_frame **out)
{
	size_t cap = st->depth ? st->depth : 1, n = 0;
	struct gt_frame *f = gt_xmalloc(cap * sizeof(*f));
	struct stack_module seen[STACK_MODULES];
	size_t nseen = 0;
	for (size_t i = 0; i < st->depth; i++) {
		uint64_t ip = st->ips[i];
		const struct gt_module *mod = gt_image_module(img, ip);
		const struct stack_module *sm =
			mod ? stack_module(s, img, mod, seen, &nseen) : NULL;
		struct gt_frame_info info[MAX_INLINE];
		int k = 0;
		if (sm && sm->sym)
			k = gt_symbols_lookup_in(s->syms, sm->sym, ip - mod->base, info,
						 MAX_INLINE);
		if (k < 1) {
			k = 1;
			memset(info, 0, sizeof(info[0]));
		}
		if (n + (size_t)k > cap) {
			cap = 2 * (n + (size_t)k);
			f = gt_xrealloc(f, cap * sizeof(*f));
		}
		for (int j = 0; j < k; j++) {
			const char *function = info[j].function; /* interned by syms */
			if (!function)
				function =
					sm ? offset_name(s, sm->name, ip - mod->base) : s->unknown;
			f[n++] = (struct gt_frame){function,
						   info[j].file,
						   info[j].line,
						   sm ? sm->name : NULL,
						   sm && sm->in_program,
						   name_role(s, function) | (sm ? sm->role : 0)};
		}
	}
	*out = f;
	return n;
}

size_t gt_program_frame(const struct gt_frame *f, size_t n)
{
	size_t i = 0;
	while (i < n && (f[i].role & GT_FRAME_ALLOCATOR))
		i++;
	return i;
}

size_t gt_site_frame(const struct gt_frame *f, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!(f[i].role & GT_FRAME_SKIPPED))
			return i;
	return n;
}

const char *const *gt_symbolizer_stripped(const struct gt_symbolizer *s, size_t *count)
{
	*count = s->nstripped;
	return (const char *const *)s->stripped;
}
