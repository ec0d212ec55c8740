/*
 * Separate debug files kept decompressed, one per build-id.
 *
 * Distributions compress the DWARF of their debug files (libc6-dbg, the
 * -dbgsym packages, what debuginfod serves), and libdw 0.188 inflates every
 * compressed section of a file when it opens its DWARF: for libc's, ~70 ms
 * and 10 MB of new pages in every report, whatever the trace's size
 * (docs/capture-cost.md, section 0.20). A copy with the sections inflated,
 * made once, opens in a fraction of that: libdw maps it and reads only
 * the pages it needs.
 *
 * The copies live in ${XDG_CACHE_HOME:-$HOME/.cache}/gittrace/debug (or
 * GITTRACE_DEBUG_CACHE, 0 for none), as BUILD-ID.debug; a copy unused for
 * 30 days is removed when another is made. Whatever fails (no home, a full
 * disk, a copy that does not check out) leaves the file as libdw found it.
 * The DWARF read is the same either way; only a copy outlives its file
 * (docs/report.md#symbols).
 */
#ifndef GT_DEBUG_CACHE_H
#define GT_DEBUG_CACHE_H

#include <stddef.h>

/*
 * Reads GITTRACE_DEBUG_CACHE, XDG_CACHE_HOME and HOME (once; warns about a
 * bad setting). Called by gt_symbols_new, before any thread looks a module
 * up.
 */
void gt_debug_cache_setup(void);

/*
 * A descriptor of the decompressed copy of the debug file of the module
 * with this build-id; *name (malloc'd, or NULL) is then replaced by the
 * copy's path. Without a whole copy in the cache, one is made first from
 * the file installed by build-id (DEBUG_ROOT/.build-id/xx/rest.debug), if
 * there is one: before libdwfl opens that file, so that it reads the copy.
 * -1 otherwise.
 */
int gt_debug_cache_open(const unsigned char *build_id, size_t build_id_len, const char *debug_root,
			char **name);

/*
 * Puts a decompressed copy of the debug file open at fd in the cache, when
 * it is the file of this build-id and has a compressed section.
 */
void gt_debug_cache_add(int fd, const unsigned char *build_id, size_t build_id_len);

#endif /* GT_DEBUG_CACHE_H */
