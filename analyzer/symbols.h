/*
 * Offline symbolization of recorded return addresses with elfutils' libdw.
 *
 * Modules are identified by their path and build-id as recorded in the
 * trace (GT_REC_MODULES); addresses are passed module-relative (ip minus the
 * module's load bias), so one lookup serves every process image that mapped
 * the same file at a different address. Separate debug info is found the
 * standard way (build-id under /usr/lib/debug/.build-id, .gnu_debuglink,
 * debuginfod when the environment enables it).
 *
 * Not thread-safe: one gt_symbols per thread.
 */
#ifndef GT_SYMBOLS_H
#define GT_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>

/* One source-level frame. Strings belong to the gt_symbols and live until
 * gt_symbols_free(). */
struct gt_frame_info {
	const char *function; /* demangled where possible; NULL if unknown */
	const char *file;     /* source file; NULL if no line info */
	int line;	      /* 0 if no line info */
	const char *module;   /* the module path as recorded */
	uint64_t offset;      /* module-relative address looked up */
	int inlined;	      /* 1 if this frame was inlined into the next */
};

struct gt_symbols;

/* Returns a new, empty symbolizer, or NULL if out of memory. */
struct gt_symbols *gt_symbols_new(void);
void gt_symbols_free(struct gt_symbols *syms);

/*
 * Resolves the return address ip_rel (module-relative; the function itself
 * subtracts 1 to land inside the call instruction) in the module at path
 * with the given build-id (may be empty). Writes up to max frames to out,
 * innermost (most inlined) first, the last one being the real function
 * that contains the address. Returns the number written: at least 1 when
 * max >= 1 (a frame with function NULL when nothing is known).
 *
 * Results are cached per (module, address). A module whose file is missing
 * or whose build-id does not match the recorded one yields no names.
 */
int gt_symbols_lookup(struct gt_symbols *syms, const char *path, const uint8_t *build_id,
		      size_t build_id_len, uint64_t ip_rel, struct gt_frame_info *out, int max);

/*
 * Whether the module has symbols of its own or found debug info: 1 yes,
 * 0 stripped (only module+offset can be shown), -1 file missing or a
 * different build. Cached.
 */
int gt_symbols_module_status(struct gt_symbols *syms, const char *path, const uint8_t *build_id,
			     size_t build_id_len);

#endif /* GT_SYMBOLS_H */
