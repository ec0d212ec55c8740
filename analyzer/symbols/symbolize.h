/*
 * Turns a recorded stack of an image into named frames with the image's
 * module map and gt_symbols, and decides which frame names an allocation
 * site: the innermost one outside the allocator, the tracer and the
 * allocation wrappers listed in symbolize.c.
 */
#ifndef GT_SYMBOLIZE_H
#define GT_SYMBOLIZE_H

#include <stdint.h>

#include "model.h"
#include "symbols.h"

/* One named frame. Strings are owned by the frame (gt_frames_free). */
struct gt_frame {
	char *function; /* name, or "module+0xoff" when stripped, or "?" */
	char *file;	/* NULL if unknown */
	int line;
	char *module;	/* basename of the module path, NULL if none */
	int in_program; /* 1 if the module is the traced program's own
			   executable (the image's exe) */
};

struct gt_symbolizer;

/* syms may be NULL (no symbolization: every frame is module+offset). */
struct gt_symbolizer *gt_symbolizer_new(struct gt_symbols *syms);
void gt_symbolizer_free(struct gt_symbolizer *s);

/*
 * Names all frames of a stack, innermost first, inlined frames before the
 * function they were inlined into. Returns the count; *out is gt_xmalloc'ed
 * (free with gt_frames_free).
 */
size_t gt_symbolize_stack(struct gt_symbolizer *s, const struct gt_image *img,
			  const struct gt_stack *st, struct gt_frame **out);
void gt_frames_free(struct gt_frame *f, size_t n);

/*
 * Index of the innermost frame that is not the C library's allocator
 * (gt_is_allocator_function); n if there is none. The flame graph and
 * folded stacks draw the frames from there outwards.
 */
size_t gt_program_frame(const struct gt_frame *f, size_t n);

/*
 * Index of the frame that names the allocation site (skipping allocator,
 * tracer and wrapper frames); n if every frame is skipped.
 */
size_t gt_site_frame(const struct gt_frame *f, size_t n);

/*
 * Index in f[0..n) (a site's frames, the site first) of the traced
 * program's own caller worth naming beside the site: when the site lies in
 * a library (zlib's deflateInit2_) or is a generic helper
 * (gt_is_helper_function: strbuf_read, git_deflate_init), the first frame
 * after it that lies in the program and is no generic helper or wrapper.
 * n when the site is the program's own function, or no frame qualifies.
 */
size_t gt_program_caller(const struct gt_frame *f, size_t n);

/* 1 if the function is one of git's generic helpers (strbuf, containers,
 * zlib and I/O wrappers, listed in symbolize.c), which many callers share,
 * or one of the functions gt_is_skipped_function names. */
int gt_is_helper_function(const char *name);

/* 1 if the function name is the C library's allocator (or one of its
 * string-duplicating callers); gt_is_skipped_function adds git's
 * allocation wrappers. */
int gt_is_allocator_function(const char *name);
int gt_is_skipped_function(const char *name);

/*
 * What the report says after naming the stripped modules: what their sites
 * show, and the ways to get names (debuginfod, the distribution's debug
 * package, a git built with symbols). One sentence list, no newline.
 */
extern const char gt_stripped_advice[];

/*
 * Paths of modules seen stripped so far (gt_symbols_module_status 0),
 * for the one note the report prints. count set to how many.
 */
const char *const *gt_symbolizer_stripped(const struct gt_symbolizer *s, size_t *count);

#endif /* GT_SYMBOLIZE_H */
