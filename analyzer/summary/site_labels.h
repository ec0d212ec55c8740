/*
 * What a site's one-line label names. A site is a whole stack, so two
 * sites can begin alike: on a stripped git every stack through xmalloc
 * begins "git+0x28997b", and a table of top sites printed that same line
 * several times over, with different counts. A label names the site's
 * function and the program's caller beside it when it has one
 * (gt_program_caller); while rows of the same table would read alike, it
 * also names the first frame where they part: "git+0x28997b ←
 * git+0x157ecd", or "git+0x28961c ← … ← git+0x272df7" past frames they
 * share.
 */
#ifndef GT_SITE_LABELS_H
#define GT_SITE_LABELS_H

#include "summary.h"

/*
 * A label reads a site's frames as a sequence: its function, the
 * program's caller if any, then the frames after the caller (after the
 * function, without one). Frame i of that sequence (i below its length):
 */
const struct gt_frame *gt_site_sequence_frame(const struct gt_site *s, size_t i);

/* Frames a label names at most: function, caller and up to four partings. */
#define GT_SITE_LABEL_MAX 6

/* The frames of its sequence a label names, in order (none without frames). */
struct gt_site_label {
	size_t n;
	size_t at[GT_SITE_LABEL_MAX];
};

/*
 * The labels of the n sites of a table (rows), one for each, that read
 * alike only where two rows' sequences do (by function name) or when the
 * rows part more than GT_SITE_LABEL_MAX frames deep.
 */
void gt_site_labels(const struct gt_site *const *rows, size_t n, struct gt_site_label *labels);

#endif /* GT_SITE_LABELS_H */
