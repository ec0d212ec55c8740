/*
 * The offline symbolizer: turns module-relative return addresses into
 * function, file:line and inlined frames with elfutils (libdwfl + libdw).
 *
 * One Dwfl per module file, the file reported at base 0 so that Dwfl
 * addresses are ELF virtual addresses; the caller passes ip minus the load
 * bias, which is that same vaddr for ET_DYN and (bias 0) for ET_EXEC.
 *
 * Everything is cached with uthash: modules by (path, build-id), results by
 * (module, address), and a per-CU table of function ranges so that a lookup
 * does not walk a whole compilation unit. Strings are interned once and owned
 * by the gt_symbols object.
 */
#define _GNU_SOURCE
#include "symbols.h"

#include "debug_cache.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <limits.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <uthash.h>

/* An interned string; the key is the text itself. */
struct interned {
	UT_hash_handle hh;
	char text[];
};

/* One cached lookup result. */
struct addr_entry {
	uint64_t ip_rel; /* key */
	UT_hash_handle hh;
	int count;
	struct gt_frame_info frames[];
};

/* A top-level function's address range inside one CU. */
struct func_range {
	Dwarf_Addr low, high; /* [low, high) in DWARF addresses */
	Dwarf_Die die;
};

/* The functions of one CU, sorted by low address. */
struct cu_index {
	Dwarf_Off cu_offset; /* key */
	UT_hash_handle hh;
	struct func_range *ranges;
	size_t count;
};

/* A function symbol (.symtab, or .dynsym when stripped) by address. */
struct sym_range {
	Dwarf_Addr start, end; /* [start, end) in Dwfl addresses */
	const char *name;      /* in the ELF file's string table */
};

struct gt_symbols_module {
	UT_hash_handle hh;
	char *key; /* path, NUL, build-id bytes */
	size_t key_len;
	const char *path; /* points into key */
	int status;	  /* as gt_symbols_module_status */
	Dwfl *dwfl;	  /* NULL when status is -1 */
	Dwfl_Module *mod;
	Dwarf_Addr low, high; /* the module's span in Dwfl addresses */
	struct addr_entry *addrs;
	struct cu_index *cus;
	struct sym_range *syms; /* sorted by start, one per address */
	size_t sym_count;
	int syms_loaded;
};

/*
 * get_addr's answers, direct-mapped by module and address, in front of the
 * modules' tables: a report of many processes asks for every frame of
 * every process's stacks, and a table lookup walks a chain of entries, a
 * cache miss each.
 */
#define ADDR_CACHE_BITS 13
#define ADDR_CACHE	(1u << ADDR_CACHE_BITS)
struct addr_slot {
	const struct gt_symbols_module *m;
	uint64_t ip_rel;
	struct addr_entry *a;
};

struct gt_symbols {
	struct gt_symbols_module *modules;
	struct interned *strings;
	char *keybuf; /* scratch for building module keys */
	size_t keybuf_size;
	struct addr_slot addr_cache[ADDR_CACHE];
};

/* The last place on libdwfl's search path for debuglinks when the callbacks
 * name none (":.debug:/usr/lib/debug": the file's own directory, its .debug
 * subdirectory, then here). */
#define DEBUG_ROOT "/usr/lib/debug"

static int readable(const char *dir, const char *sub, const char *name)
{
	char path[PATH_MAX];
	int n = snprintf(path, sizeof(path), "%s/%s%s%s", dir, sub, *sub ? "/" : "", name);
	return n > 0 && (size_t)n < sizeof(path) && access(path, R_OK) == 0;
}

/*
 * Whether a file exists that libdwfl's search by debuglink tries for the
 * module at file_name: named by the module's .gnu_debuglink (without one,
 * its base name plus .debug, or its base name alone), in its directory, its
 * .debug subdirectory, or under DEBUG_ROOT at its directory or any trailing
 * part of it; for a dwz file's altlink (which libdwfl passes as the
 * debuglink), also the link itself and its base name in .dwz and DEBUG_ROOT.
 * A superset of the places libdwfl tries; it alone checks what it finds.
 */
static int debug_file_beside(const char *file_name, const char *debuglink)
{
	const char *slash = strrchr(file_name, '/');
	if (!slash)
		return 0; /* modules are opened by absolute path */
	const char *base = slash + 1;
	char dir[PATH_MAX], invented[NAME_MAX + 1];
	size_t dir_len = (size_t)(slash - file_name);
	if (dir_len >= sizeof(dir))
		return 0;
	memcpy(dir, file_name, dir_len);
	dir[dir_len] = '\0';
	const char *name = debuglink;
	if (!name) {
		int n = snprintf(invented, sizeof(invented), "%s.debug", base);
		if (n < 0 || (size_t)n >= sizeof(invented))
			return 0;
		name = invented;
	}
	const char *name_base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
	if ((name[0] == '/' && access(name, R_OK) == 0) || readable(dir, "", name) ||
	    readable(dir, ".debug", name) || (!debuglink && readable(dir, ".debug", base)) ||
	    readable(dir, ".dwz", name_base) || readable(DEBUG_ROOT, ".dwz", name_base))
		return 1;
	/* For /usr/bin: DEBUG_ROOT/usr/bin, DEBUG_ROOT/bin, DEBUG_ROOT. */
	for (const char *sub = dir;;) {
		while (*sub == '/')
			sub++;
		if (readable(DEBUG_ROOT, sub, name) ||
		    (name_base != name && readable(DEBUG_ROOT, sub, name_base)) ||
		    (!debuglink && readable(DEBUG_ROOT, sub, base)))
			return 1;
		if (!*sub)
			return 0;
		sub = strchr(sub, '/');
		if (!sub)
			sub = "";
	}
}

/*
 * debug_file_beside for the module's path, then for its real path, which
 * libdwfl searches from as well: the trace names a library as the loader
 * did (/lib/x86_64-linux-gnu/libz.so.1, where /lib links to usr/lib).
 */
static int debug_file_on_disk(const char *file_name, const char *debuglink)
{
	if (!file_name)
		return 0;
	if (debug_file_beside(file_name, debuglink))
		return 1;
	char *real = realpath(file_name, NULL);
	int found = real && strcmp(real, file_name) && debug_file_beside(real, debuglink);
	free(real);
	return found;
}

/*
 * Separate debug info the standard way (build-id under DEBUG_ROOT, then the
 * debuglink), except debuginfod when it has no server to ask. libdwfl asks
 * it last for any module with a build-id and no debug file on disk, and
 * loads libdebuginfod to do so even with DEBUGINFOD_URLS unset: it and 27
 * more libraries (curl, gnutls, krb5, ldap), 7 MiB of RSS and ~15 ms a report of
 * a distribution's stripped git (docs/capture-cost.md, section 0.16).
 * First, though, the decompressed copy of the file (debug_cache.h), made
 * by an earlier report or now.
 */
static int find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname, GElf_Addr base,
			  const char *file_name, const char *debuglink, GElf_Word debuglink_crc,
			  char **debuginfo_file_name)
{
	const char *servers = getenv("DEBUGINFOD_URLS");
	const unsigned char *bits = NULL;
	GElf_Addr vaddr;
	int build_id_len = dwfl_module_build_id(mod, &bits, &vaddr);
	/*
	 * libdwfl asks again once it has the module's debug file open, for
	 * the dwz file that file's .gnu_debugaltlink names (debuglink is
	 * then that name). The module's build-id is no key for that one:
	 * handing back the module's own copy would resolve dwz's shared
	 * strings and DIEs in the wrong file. So the cache only answers the
	 * first call.
	 */
	Dwarf_Addr dwbias;
	dwfl_module_info(mod, NULL, NULL, NULL, &dwbias, NULL, NULL, NULL);
	int debug_file_open = dwbias != (Dwarf_Addr)-1;
	size_t id_len = build_id_len > 0 && !debug_file_open ? (size_t)build_id_len : 0;
	int fd = gt_debug_cache_open(bits, id_len, DEBUG_ROOT, debuginfo_file_name);
	if (fd >= 0)
		return fd;
	if ((servers && *servers) || build_id_len <= 0 || debug_file_on_disk(file_name, debuglink))
		fd = dwfl_standard_find_debuginfo(mod, userdata, modname, base, file_name,
						  debuglink, debuglink_crc, debuginfo_file_name);
	else
		fd = dwfl_build_id_find_debuginfo(mod, userdata, modname, base, file_name,
						  debuglink, debuglink_crc, debuginfo_file_name);
	/* Found elsewhere (by debuglink, through debuginfod): libdwfl holds
	 * the file open, so the copy is for the reports after this one. */
	if (fd >= 0)
		gt_debug_cache_add(fd, bits, id_len);
	return fd;
}

/* find_elf is unused (we hand libdwfl the file) but must not be NULL. */
static const Dwfl_Callbacks offline_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = NULL,
};

/* Most frames one address may expand to. A deeper chain of inlines (never
 * seen in practice) loses its innermost frames. */
#define MAX_FRAMES 64

struct gt_symbols *gt_symbols_new(void)
{
	gt_debug_cache_setup();
	return calloc(1, sizeof(struct gt_symbols));
}

static void free_module(struct gt_symbols_module *m)
{
	struct addr_entry *a, *atmp;
	HASH_ITER(hh, m->addrs, a, atmp)
	{
		HASH_DEL(m->addrs, a);
		free(a);
	}
	struct cu_index *c, *ctmp;
	HASH_ITER(hh, m->cus, c, ctmp)
	{
		HASH_DEL(m->cus, c);
		free(c->ranges);
		free(c);
	}
	free(m->syms);
	if (m->dwfl)
		dwfl_end(m->dwfl);
	free(m->key);
	free(m);
}

void gt_symbols_free(struct gt_symbols *syms)
{
	if (!syms)
		return;
	struct gt_symbols_module *m, *mtmp;
	HASH_ITER(hh, syms->modules, m, mtmp)
	{
		HASH_DEL(syms->modules, m);
		free_module(m);
	}
	struct interned *s, *stmp;
	HASH_ITER(hh, syms->strings, s, stmp)
	{
		HASH_DEL(syms->strings, s);
		free(s);
	}
	free(syms->keybuf);
	free(syms);
}

const char *gt_symbols_intern(struct gt_symbols *syms, const char *s)
{
	if (!s)
		return NULL;
	size_t len = strlen(s);
	struct interned *e;
	HASH_FIND(hh, syms->strings, s, len, e);
	if (e)
		return e->text;
	e = malloc(sizeof(*e) + len + 1);
	if (!e)
		return NULL;
	memcpy(e->text, s, len + 1);
	HASH_ADD_KEYPTR(hh, syms->strings, e->text, len, e);
	return e->text;
}

/* ---- opening a module ---------------------------------------------- */

static int has_section_type(Elf *elf, GElf_Word type)
{
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr shdr;
		if (gelf_getshdr(scn, &shdr) && shdr.sh_type == type)
			return 1;
	}
	return 0;
}

/*
 * Reports the file to a new Dwfl and fills m->dwfl, m->mod and m->status.
 * Leaves status -1 (and no Dwfl) for anything that is not a regular ELF
 * file with the recorded build-id.
 */
static void open_module(struct gt_symbols_module *m, const uint8_t *build_id, size_t build_id_len)
{
	m->status = -1;
	struct stat st;
	/* Relative paths belong to the traced process's cwd, not ours (see
	 * symbols.h). stat first: open() on a FIFO would block, and
	 * "[vdso]"-like names or directories are not files we can read. */
	if (m->path[0] != '/' || stat(m->path, &st) != 0 || !S_ISREG(st.st_mode))
		return;
	int fd = open(m->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	Dwfl *dwfl = dwfl_begin(&offline_callbacks);
	if (!dwfl) {
		close(fd);
		return;
	}
	/* base 0 with add_p_vaddr: Dwfl addresses are the ELF vaddrs. */
	Dwfl_Module *mod = dwfl_report_elf(dwfl, m->path, m->path, fd, 0, true);
	if (!mod) {
		close(fd); /* not taken over on failure */
		dwfl_end(dwfl);
		return;
	}
	dwfl_report_end(dwfl, NULL, NULL);

	if (build_id_len > 0) {
		const unsigned char *bits;
		GElf_Addr vaddr;
		int len = dwfl_module_build_id(mod, &bits, &vaddr);
		if (len <= 0 || (size_t)len != build_id_len ||
		    memcmp(bits, build_id, build_id_len)) {
			dwfl_end(dwfl);
			return;
		}
	}

	Dwarf_Addr bias;
	int has_dwarf = dwfl_module_getdwarf(mod, &bias) != NULL;
	Elf *elf = dwfl_module_getelf(mod, &bias);
	if (!elf) {
		dwfl_end(dwfl);
		return;
	}
	const char *debugfile = NULL;
	dwfl_module_info(mod, NULL, &m->low, &m->high, NULL, NULL, NULL, &debugfile);
	/* A separate debug file carries the .symtab that strip removed. */
	m->status = has_dwarf || debugfile || has_section_type(elf, SHT_SYMTAB);
	m->dwfl = dwfl;
	m->mod = mod;
}

size_t gt_symbols_module_key(char **buf, size_t *cap, const char *path, const uint8_t *build_id,
			     size_t build_id_len)
{
	size_t path_len = strlen(path);
	size_t key_len = path_len + 1 + build_id_len;
	if (key_len > *cap) {
		char *grown = realloc(*buf, key_len);
		if (!grown)
			return 0;
		*buf = grown;
		*cap = key_len;
	}
	memcpy(*buf, path, path_len + 1);
	if (build_id_len)
		memcpy(*buf + path_len + 1, build_id, build_id_len);
	return key_len;
}

struct gt_symbols_module *gt_symbols_module(struct gt_symbols *syms, const char *path,
					    const uint8_t *build_id, size_t build_id_len)
{
	if (!path)
		path = "";
	if (!build_id)
		build_id_len = 0;
	size_t key_len = gt_symbols_module_key(&syms->keybuf, &syms->keybuf_size, path, build_id,
					       build_id_len);
	if (!key_len)
		return NULL;

	struct gt_symbols_module *m;
	HASH_FIND(hh, syms->modules, syms->keybuf, key_len, m);
	if (m)
		return m;
	m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	m->key = malloc(key_len);
	if (!m->key) {
		free(m);
		return NULL;
	}
	memcpy(m->key, syms->keybuf, key_len);
	m->key_len = key_len;
	m->path = m->key;
	open_module(m, build_id, build_id_len);
	HASH_ADD_KEYPTR(hh, syms->modules, m->key, m->key_len, m);
	return m;
}

int gt_symbols_module_status(struct gt_symbols *syms, const char *path, const uint8_t *build_id,
			     size_t build_id_len)
{
	return gt_symbols_status(gt_symbols_module(syms, path, build_id, build_id_len));
}

int gt_symbols_status(const struct gt_symbols_module *m)
{
	return m ? m->status : -1;
}

/* ---- finding the function DIE of an address ------------------------ */

static int compare_ranges(const void *a, const void *b)
{
	const struct func_range *x = a, *y = b;
	return (x->low > y->low) - (x->low < y->low);
}

/* Appends every range of every function under die (descending into
 * namespaces and classes, where C++ puts its methods). */
static int collect_functions(Dwarf_Die *parent, struct func_range **ranges, size_t *count,
			     size_t *alloc)
{
	Dwarf_Die die;
	if (dwarf_child(parent, &die) != 0)
		return 0;
	do {
		int tag = dwarf_tag(&die);
		if (tag == DW_TAG_namespace || tag == DW_TAG_class_type ||
		    tag == DW_TAG_structure_type || tag == DW_TAG_union_type) {
			if (collect_functions(&die, ranges, count, alloc) < 0)
				return -1;
			continue;
		}
		if (tag != DW_TAG_subprogram)
			continue;
		Dwarf_Addr base, low, high;
		ptrdiff_t off = 0;
		while ((off = dwarf_ranges(&die, off, &base, &low, &high)) > 0) {
			if (*count == *alloc) {
				size_t n = *alloc ? *alloc * 2 : 64;
				struct func_range *r = realloc(*ranges, n * sizeof(**ranges));
				if (!r)
					return -1;
				*ranges = r;
				*alloc = n;
			}
			(*ranges)[(*count)++] = (struct func_range){low, high, die};
		}
	} while (dwarf_siblingof(&die, &die) == 0);
	return 0;
}

static struct cu_index *get_cu_index(struct gt_symbols_module *m, Dwarf_Die *cudie)
{
	Dwarf_Off off = dwarf_dieoffset(cudie);
	struct cu_index *c;
	HASH_FIND(hh, m->cus, &off, sizeof(off), c);
	if (c)
		return c;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->cu_offset = off;
	size_t alloc = 0;
	if (collect_functions(cudie, &c->ranges, &c->count, &alloc) < 0) {
		free(c->ranges);
		free(c);
		return NULL;
	}
	qsort(c->ranges, c->count, sizeof(*c->ranges), compare_ranges);
	HASH_ADD(hh, m->cus, cu_offset, sizeof(c->cu_offset), c);
	return c;
}

/* The function whose code contains pc, or 0 if none does. */
static int find_function(struct gt_symbols_module *m, Dwarf_Die *cudie, Dwarf_Addr pc,
			 Dwarf_Die *out)
{
	struct cu_index *c = get_cu_index(m, cudie);
	if (!c || !c->count)
		return 0;
	/* Last range starting at or below pc. Ranges of distinct functions
	 * do not overlap, so that is the only candidate. */
	size_t lo = 0, hi = c->count;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (c->ranges[mid].low <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || pc >= c->ranges[lo - 1].high)
		return 0;
	*out = c->ranges[lo - 1].die;
	return 1;
}

static int has_pc_attributes(Dwarf_Die *die)
{
	return dwarf_hasattr(die, DW_AT_low_pc) || dwarf_hasattr(die, DW_AT_ranges);
}

/* Deepest scope nesting followed: bounds the recursion on corrupt DWARF. */
#define MAX_SCOPE_DEPTH 256

/*
 * Appends to chain (at *n, up to max) the inlined subroutines under scope
 * that contain pc, outermost first. Returns 1 if a child of scope contains
 * pc, 0 if none does (chain is then unchanged).
 */
static int descend(Dwarf_Die *scope, Dwarf_Addr pc, Dwarf_Die *chain, int *n, int max, int depth)
{
	Dwarf_Die child;
	if (depth >= MAX_SCOPE_DEPTH || dwarf_child(scope, &child) != 0)
		return 0;
	do {
		int tag = dwarf_tag(&child);
		if (tag != DW_TAG_inlined_subroutine && tag != DW_TAG_lexical_block &&
		    tag != DW_TAG_try_block && tag != DW_TAG_catch_block)
			continue;
		if (dwarf_haspc(&child, pc) == 1) {
			if (tag == DW_TAG_inlined_subroutine && *n < max)
				chain[(*n)++] = child;
			descend(&child, pc, chain, n, max, depth + 1);
			return 1;
		}
		/* A block without addresses of its own says nothing about
		 * its children: look inside, and go on with the siblings if
		 * nothing there contains pc. */
		if (tag != DW_TAG_inlined_subroutine && !has_pc_attributes(&child) &&
		    descend(&child, pc, chain, n, max, depth + 1))
			return 1;
	} while (dwarf_siblingof(&child, &child) == 0);
	return 0;
}

/*
 * Fills chain with the function and the inlined subroutines containing pc,
 * outermost first; returns how many (at most max, at least 1).
 */
static int inline_chain(Dwarf_Die *function, Dwarf_Addr pc, Dwarf_Die *chain, int max)
{
	int n = 0;
	chain[n++] = *function;
	descend(function, pc, chain, &n, max, 0);
	return n;
}

/* ---- the symbol table, for code without DWARF ---------------------- */

/* Among symbols at one address: sized before sizeless, then global, weak,
 * local, so the one kept is the one a reader would expect. */
static int sym_rank(const GElf_Sym *sym)
{
	int bind = GELF_ST_BIND(sym->st_info);
	int rank = bind == STB_GLOBAL ? 2 : bind == STB_WEAK ? 1 : 0;
	return rank + (sym->st_size ? 4 : 0);
}

struct sym_sort {
	struct sym_range r;
	int rank;
};

static int compare_syms(const void *a, const void *b)
{
	const struct sym_sort *x = a, *y = b;
	if (x->r.start != y->r.start)
		return (x->r.start > y->r.start) - (x->r.start < y->r.start);
	if (x->rank != y->rank)
		return y->rank - x->rank;
	return strcmp(x->r.name, y->r.name);
}

/*
 * Sorts the module's function symbols once. dwfl_module_addrinfo would
 * answer the same question, but it scans the whole table on every call,
 * which the ~100k addresses of a big trace cannot afford.
 */
static void load_syms(struct gt_symbols_module *m)
{
	m->syms_loaded = 1;
	int count = dwfl_module_getsymtab(m->mod);
	if (count <= 0)
		return;
	struct sym_sort *all = malloc((size_t)count * sizeof(*all));
	if (!all)
		return;
	size_t n = 0;
	for (int i = 1; i < count; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		GElf_Word shndx;
		const char *name =
			dwfl_module_getsym_info(m->mod, i, &sym, &addr, &shndx, NULL, NULL);
		int type = GELF_ST_TYPE(sym.st_info);
		if (!name || !name[0] || shndx == SHN_UNDEF ||
		    (type != STT_FUNC && type != STT_GNU_IFUNC))
			continue;
		all[n++] = (struct sym_sort){{addr, addr + sym.st_size, name}, sym_rank(&sym)};
	}
	qsort(all, n, sizeof(*all), compare_syms);
	m->syms = malloc((n ? n : 1) * sizeof(*m->syms));
	if (!m->syms) {
		free(all);
		return;
	}
	size_t kept = 0;
	for (size_t i = 0; i < n; i++)
		if (kept == 0 || m->syms[kept - 1].start != all[i].r.start)
			m->syms[kept++] = all[i].r;
	/* A symbol without a size (hand-written assembly) reaches up to the
	 * next symbol. */
	for (size_t i = 0; i < kept; i++)
		if (m->syms[i].end == m->syms[i].start)
			m->syms[i].end = i + 1 < kept ? m->syms[i + 1].start : m->high;
	m->sym_count = kept;
	free(all);
}

/* The name of the function symbol containing addr, or NULL. */
static const char *symbol_name(struct gt_symbols_module *m, Dwarf_Addr addr)
{
	if (!m->syms_loaded)
		load_syms(m);
	size_t lo = 0, hi = m->sym_count;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->syms[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* Usually the closest symbol below addr contains it; a few steps back
	 * find an outer function that a small symbol sits inside. */
	for (size_t i = lo, steps = 0; i > 0 && steps < 8; i--, steps++)
		if (addr < m->syms[i - 1].end)
			return m->syms[i - 1].name;
	return NULL;
}

/* ---- building the frames of one address ---------------------------- */

/* The source file numbered idx in the line table of die's CU. */
static const char *call_file(Dwarf_Die *die, Dwarf_Word idx)
{
	Dwarf_Die cudie;
	if (!dwarf_diecu(die, &cudie, NULL, NULL))
		return NULL;
	Dwarf_Files *files;
	size_t nfiles;
	if (dwarf_getsrcfiles(&cudie, &files, &nfiles) != 0 || idx >= nfiles)
		return NULL;
	return dwarf_filesrc(files, idx, NULL, NULL);
}

/* Writes the frames of addr (a Dwfl address, already minus 1), innermost
 * first; returns how many. */
static int build_frames(struct gt_symbols *syms, struct gt_symbols_module *m, Dwarf_Addr addr,
			struct gt_frame_info *frames)
{
	const char *line_file = NULL;
	int line_no = 0;
	Dwfl_Line *line = dwfl_module_getsrc(m->mod, addr);
	if (line)
		line_file = dwfl_lineinfo(line, NULL, &line_no, NULL, NULL, NULL);
	if (!line_file)
		line_no = 0;

	Dwarf_Die chain[MAX_FRAMES];
	int n = 0;
	Dwarf_Addr bias;
	Dwarf_Die *cudie = dwfl_module_addrdie(m->mod, addr, &bias);
	Dwarf_Die function;
	if (cudie && find_function(m, cudie, addr - bias, &function))
		n = inline_chain(&function, addr - bias, chain, MAX_FRAMES);

	if (n == 0) {
		/* No DWARF function here: the symbol table (.symtab, or
		 * .dynsym in a stripped file) may still name it. */
		frames[0] = (struct gt_frame_info){gt_symbols_intern(syms, symbol_name(m, addr)),
						   gt_symbols_intern(syms, line_file),
						   line_no,
						   m->path,
						   0,
						   0};
		return 1;
	}

	/* chain is outermost first; frames are innermost first. The
	 * innermost frame's line is the line table's; each outer frame's line
	 * is where the frame inside it was inlined (its call site). */
	const char *file = gt_symbols_intern(syms, line_file);
	int lineno = line_no;
	for (int i = n - 1; i >= 0; i--) {
		struct gt_frame_info *f = &frames[n - 1 - i];
		*f = (struct gt_frame_info){gt_symbols_intern(syms, dwarf_diename(&chain[i])),
					    file,
					    lineno,
					    m->path,
					    0,
					    i > 0};
		if (i > 0) {
			Dwarf_Attribute attr;
			Dwarf_Word idx = 0, cl = 0;
			file = NULL;
			lineno = 0;
			if (dwarf_formudata(dwarf_attr(&chain[i], DW_AT_call_file, &attr), &idx) ==
				    0 &&
			    dwarf_formudata(dwarf_attr(&chain[i], DW_AT_call_line, &attr), &cl) ==
				    0) {
				file = gt_symbols_intern(syms, call_file(&chain[i], idx));
				lineno = file ? (int)cl : 0;
			}
		}
	}
	/* An unnamed DWARF function: the symbol table may know it. */
	if (!frames[n - 1].function)
		frames[n - 1].function = gt_symbols_intern(syms, symbol_name(m, addr));
	return n;
}

static struct addr_entry *get_addr(struct gt_symbols *syms, struct gt_symbols_module *m,
				   uint64_t ip_rel)
{
	uint64_t mix = ((uintptr_t)m ^ ip_rel * 0x9E3779B97F4A7C15ull) * 0x9E3779B97F4A7C15ull;
	struct addr_slot *slot = &syms->addr_cache[mix >> (64 - ADDR_CACHE_BITS)];
	if (slot->m == m && slot->ip_rel == ip_rel)
		return slot->a;
	struct addr_entry *a;
	HASH_FIND(hh, m->addrs, &ip_rel, sizeof(ip_rel), a);
	if (a) {
		*slot = (struct addr_slot){m, ip_rel, a};
		return a;
	}
	struct gt_frame_info frames[MAX_FRAMES];
	int n = 1;
	frames[0] = (struct gt_frame_info){NULL, NULL, 0, m->path, 0, 0};
	/* ip_rel - 1 lands inside the call instruction, whose line and
	 * inline context are the ones that made the call. */
	Dwarf_Addr addr = ip_rel - 1;
	if (ip_rel > 0 && addr >= m->low && addr < m->high)
		n = build_frames(syms, m, addr, frames);
	a = malloc(sizeof(*a) + (size_t)n * sizeof(a->frames[0]));
	if (!a)
		return NULL;
	a->ip_rel = ip_rel;
	a->count = n;
	for (int i = 0; i < n; i++) {
		a->frames[i] = frames[i];
		a->frames[i].offset = ip_rel;
	}
	HASH_ADD(hh, m->addrs, ip_rel, sizeof(a->ip_rel), a);
	*slot = (struct addr_slot){m, ip_rel, a};
	return a;
}

int gt_symbols_lookup(struct gt_symbols *syms, const char *path, const uint8_t *build_id,
		      size_t build_id_len, uint64_t ip_rel, struct gt_frame_info *out, int max)
{
	if (max < 1)
		return 0;
	return gt_symbols_lookup_in(syms, gt_symbols_module(syms, path, build_id, build_id_len),
				    ip_rel, out, max);
}

int gt_symbols_lookup_in(struct gt_symbols *syms, struct gt_symbols_module *m, uint64_t ip_rel,
			 struct gt_frame_info *out, int max)
{
	if (max < 1)
		return 0;
	struct addr_entry *a = NULL;
	if (m && m->status >= 0)
		a = get_addr(syms, m, ip_rel);
	if (!a) {
		/* Missing module, other build, or out of memory: nothing known. */
		out[0] = (struct gt_frame_info){NULL, NULL, 0, m ? m->path : NULL, ip_rel, 0};
		return 1;
	}
	if (a->count <= max) {
		memcpy(out, a->frames, (size_t)a->count * sizeof(out[0]));
		return a->count;
	}
	/* Too deep for the caller: keep the innermost frames and the real
	 * function, which the contract promises last. */
	memcpy(out, a->frames, (size_t)(max - 1) * sizeof(out[0]));
	out[max - 1] = a->frames[a->count - 1];
	return max;
}
