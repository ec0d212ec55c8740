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

/*
 * One named frame. Its strings belong to the symbolizer that named it and
 * live until gt_symbolizer_free; they are interned, so two frames' names
 * are equal exactly when their pointers are (a site's identity compares
 * frames that way, summary.c).
 */
struct gt_frame {
	const char *function; /* name, or "module+0xoff" when stripped, or "?" */
	const char *file;     /* NULL if unknown */
	int line;
	const char *module; /* basename of the module path, NULL if none */
	int in_program;	    /* 1 if the module is the traced program's own
			       executable (the image's exe) */
	unsigned role;	    /* GT_FRAME_* bits, from the lists in symbolize.c */
};

/* A frame's role in choosing sites (bits of gt_frame.role). */
enum {
	/* the C library's allocator, or one of its string-duplicating callers */
	GT_FRAME_ALLOCATOR = 1,
	/* never names a site: the allocator, git's allocation wrappers, the tracer */
	GT_FRAME_SKIPPED = 2,
	/* says little about who allocated: git's generic helpers (strbuf,
	 * containers, zlib and I/O wrappers), which many callers share, and
	 * the allocator and wrappers */
	GT_FRAME_HELPER = 4,
	/* the tracer's own (its wrapper of main, in every stack): also SKIPPED */
	GT_FRAME_TRACER = 8,
};

struct gt_symbolizer;

/*
 * syms may be NULL (no symbolization: every frame is module+offset); else
 * it must outlive the symbolizer, whose frames hold its strings.
 */
struct gt_symbolizer *gt_symbolizer_new(struct gt_symbols *syms);
void gt_symbolizer_free(struct gt_symbolizer *s);
/* The gt_symbols it was made with (NULL: no symbolization). */
struct gt_symbols *gt_symbolizer_symbols(const struct gt_symbolizer *s);

/*
 * Names all frames of a stack, innermost first, inlined frames before the
 * function they were inlined into. Returns the count; *out is gt_xmalloc'ed
 * (free() it; its strings are the symbolizer's).
 */
size_t gt_symbolize_stack(struct gt_symbolizer *s, const struct gt_image *img,
			  const struct gt_stack *st, struct gt_frame **out);

/*
 * Index of the innermost frame that is not the C library's allocator
 * (GT_FRAME_ALLOCATOR); n if there is none. The flame graph and
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
 * (GT_FRAME_HELPER: strbuf_read, git_deflate_init), the first frame
 * after it that lies in the program and is no generic helper or wrapper.
 * n when the site is the program's own function, or no frame qualifies.
 */
size_t gt_program_caller(const struct gt_frame *f, size_t n);

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
