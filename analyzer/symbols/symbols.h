/*
 * Offline symbolization of recorded return addresses with elfutils' libdw.
 *
 * Modules are identified by their path and build-id as recorded in the
 * trace (GT_REC_MODULE); addresses are passed module-relative (ip minus the
 * module's load bias), so one lookup serves every process image that mapped
 * the same file at a different address. For a PIE or shared library that is
 * the ELF vaddr; for a non-PIE executable (ET_EXEC, bias 0) it is the
 * absolute address, which is also its vaddr. Separate debug info is found
 * the standard way (build-id under /usr/lib/debug/.build-id, .gnu_debuglink,
 * debuginfod only when DEBUGINFOD_URLS is set: no network, and libdebuginfod
 * not even loaded, otherwise).
 *
 * Every call may allocate; results are cached for the object's life, so
 * memory grows with the distinct (module, address) pairs looked up (a few
 * hundred bytes each) plus each module's debug info.
 *
 * Not thread-safe: one gt_symbols per thread.
 */
#ifndef GT_SYMBOLS_H
#define GT_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>

/* One source-level frame. Strings belong to the gt_symbols and live until
 * gt_symbols_free(); equal function or file names from one gt_symbols are
 * the same pointer. */
struct gt_frame_info {
	const char *function; /* DWARF source name, else the symbol's (C++
				 symbol names stay mangled); NULL if unknown */
	const char *file;     /* source file as the line table names it
				 (relative if the build mapped its directory
				 away); NULL if no line info */
	int line;	      /* 0 if no line info */
	const char *module;   /* the module path as recorded (a copy) */
	uint64_t offset;      /* ip_rel as passed, not minus 1 */
	int inlined;	      /* 1 if this frame was inlined into the next */
};

struct gt_symbols;

/* Returns a new, empty symbolizer, or NULL if out of memory. */
struct gt_symbols *gt_symbols_new(void);
/* Frees the symbolizer, every string it returned and its open files; NULL
 * is allowed. */
void gt_symbols_free(struct gt_symbols *syms);

/*
 * Resolves the return address ip_rel (module-relative; the function itself
 * subtracts 1 to land inside the call instruction) in the module at path
 * with the given build-id (may be empty). Writes up to max frames to out,
 * innermost (most inlined) first, the last one being the real function
 * that contains the address. Returns the number written: at least 1 when
 * max >= 1 (a frame with function NULL when nothing is known), 0 when
 * max < 1. If the address has more than max frames, the innermost max - 1
 * are written and then the real function.
 *
 * Frame lines: the innermost frame's is the line of the call itself; each
 * outer frame's is where the frame inside it was inlined. Without DWARF the
 * name comes from .symtab or .dynsym (file NULL, line 0), and an address no
 * symbol covers stays unnamed rather than borrowing a neighbour's name.
 *
 * path must be absolute: a relative one (a dlopen of "./x.so") would be
 * resolved against the analyzer's directory, not the traced process's, so
 * the caller joins it with the image's cwd or gets no names. An empty
 * build-id is not checked. A module whose file is missing, not a regular
 * ELF file (directories, FIFOs, "[vdso]", "linux-vdso.so.1"), or of another
 * build-id yields no names. Results are cached per (module, address).
 */
int gt_symbols_lookup(struct gt_symbols *syms, const char *path, const uint8_t *build_id,
		      size_t build_id_len, uint64_t ip_rel, struct gt_frame_info *out, int max);

/*
 * Whether the module has symbols of its own or found debug info: 1 yes
 * (DWARF, a .symtab, or a separate debug file), 0 stripped (at most .dynsym
 * names, no lines), -1 file missing, unusable or a different build (as in
 * gt_symbols_lookup). Opens the module on first use; cached.
 */
int gt_symbols_module_status(struct gt_symbols *syms, const char *path, const uint8_t *build_id,
			     size_t build_id_len);

/*
 * The same two questions for many addresses of one module, without finding
 * the module by its path and build-id each time: gt_symbols_module finds or
 * opens it (NULL only when out of memory, which the other two take as a
 * module that yields no names), valid until gt_symbols_free.
 */
struct gt_symbols_module;
struct gt_symbols_module *gt_symbols_module(struct gt_symbols *syms, const char *path,
					    const uint8_t *build_id, size_t build_id_len);
int gt_symbols_status(const struct gt_symbols_module *m);
int gt_symbols_lookup_in(struct gt_symbols *syms, struct gt_symbols_module *m, uint64_t ip_rel,
			 struct gt_frame_info *out, int max);

/*
 * The key a module is known by, its path, a NUL and its build-id (build_id
 * may be NULL when build_id_len is 0), written to *buf, grown as needed
 * (*cap its size). Returns its length; 0 when out of memory (*buf kept).
 */
size_t gt_symbols_module_key(char **buf, size_t *cap, const char *path, const uint8_t *build_id,
			     size_t build_id_len);

/*
 * The copy of s that syms keeps with its names (NULL for NULL, or when out
 * of memory): equal strings interned in one gt_symbols are one pointer,
 * whether syms found them or a caller gave them.
 */
const char *gt_symbols_intern(struct gt_symbols *syms, const char *s);

#endif /* GT_SYMBOLS_H */
