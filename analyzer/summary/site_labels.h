/*
 * What a site's one-line label names. A site is a whole stack, so two
 * sites can begin alike: on a stripped git every stack through xmalloc
 * begins "git+0x28997b", and a table of top sites printed that same line
 * several times over, with different counts. A label names the site's
 * function and the program's caller beside it when it has one
 * (gt_program_caller); while rows of the same table would read alike, it
 * also names the first frame where their stacks part: "git+0x28997b ←
 * git+0x157ecd", or "git+0x28961c ← … ← git+0x272df7" past frames they
 * share. A label's (file:line) is that of the last frame it names.
 */
#ifndef GT_SITE_LABELS_H
#define GT_SITE_LABELS_H

#include "summary.h"

/* Frames a label names at most. */
#define GT_SITE_LABEL_MAX 6

/*
 * The frames a label names: indexes into the site's frames, ascending, and
 * those that print their (file:line): the last, and any other where two
 * rows' stacks differ only in the line (bit i of located for at[i]).
 */
struct gt_site_label {
	size_t n;
	size_t at[GT_SITE_LABEL_MAX];
	unsigned located;
};

/*
 * The labels of the n sites of a table (rows), one for each. Two rows read
 * alike only if their stacks do (function, file and line of every frame)
 * or if they part only beyond what GT_SITE_LABEL_MAX frames can name.
 */
void gt_site_labels(const struct gt_site *const *rows, size_t n, struct gt_site_label *labels);

/*
 * Whether the label skips frames before the i-th it names (printed "← …"):
 * not between the function and the program's caller, which passes over
 * generic helpers and library frames by design.
 */
int gt_site_label_skips(const struct gt_site *s, const struct gt_site_label *l, size_t i);

/* Whether the i-th frame the label names prints its (file:line). */
int gt_site_label_located(const struct gt_site_label *l, size_t i);

#endif /* GT_SITE_LABELS_H */
