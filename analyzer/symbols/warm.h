/*
 * Opens modules for a gt_symbols on a thread of its own while the trace is
 * still being read. Opening a module reads its debug info (libc6-dbg's
 * compressed DWARF took ~45 ms of libz to inflate before debug_cache.h
 * kept a copy inflated; making that copy still does), and a report's first
 * stacks name the same few modules: opened beside the reading, that time
 * no longer adds to the report's.
 *
 * From gt_warmer_start to gt_warmer_stop the gt_symbols is the warmer's:
 * the caller must not use it, nor anything that looks names up with it.
 */
#ifndef GT_WARM_H
#define GT_WARM_H

#include <stddef.h>
#include <stdint.h>

#include "symbols.h"

struct gt_warmer;

/* A warmer for syms; NULL if no thread could be started (nothing is warmed). */
struct gt_warmer *gt_warmer_start(struct gt_symbols *syms);

/*
 * Asks for the module at path (absolute: others are skipped, as
 * gt_symbols_module would not open them) with that build-id. Each is
 * opened once, in the order asked, as gt_symbols_module opens it; the
 * strings are copied. w may be NULL.
 */
void gt_warmer_add(struct gt_warmer *w, const char *path, const uint8_t *build_id,
		   size_t build_id_len);

/*
 * Waits for the module being opened, if any, ends the thread and frees w
 * (NULL is allowed). Modules asked for but not started are left for the
 * caller's lookups to open: a stop does not wait for modules that the
 * next image may not need, nor for their downloads. syms is the caller's
 * again.
 */
void gt_warmer_stop(struct gt_warmer *w);

#endif /* GT_WARM_H */
