/*
 * How the variants of one comparison compose: what `--common` adds to every
 * variant, what a lone `--alloc NAME` beside `--variant`s means, and the
 * warning when a variant differs from the baseline in more than one way
 * (then a difference cannot be put down to either change).
 */
#ifndef GT_AB_COMPOSE_H
#define GT_AB_COMPOSE_H

#include <stddef.h>

#include "variant.h"

/*
 * Composes v[0..n) (v[0] the baseline) in place, in this order:
 *  1. when some variant came from `--variant`, each lone `--alloc` variant
 *     other than the baseline takes the baseline's git settings: it is
 *     "the baseline with another allocator", never "the plain command with
 *     another allocator" (which would silently drop the baseline's
 *     settings, so that it differed in two ways);
 *  2. common (`--common`; may be NULL) goes into every variant, the
 *     baseline too: its settings in front of each variant's own, its
 *     allocator as the variant's.
 * Dies with a usage error when a variant sets a key that common sets, or
 * names an allocator when common names one.
 */
void gt_ab_variants_compose(struct gt_ab_variant *v, size_t n, const struct gt_ab_variant *common);

/*
 * Warns (one line on stderr each) about every variant that differs from
 * the baseline v[0] both in its allocator and in its git settings.
 * Returns how many warnings it printed.
 */
size_t gt_ab_variants_warn_mixed(const struct gt_ab_variant *v, size_t n);

#endif /* GT_AB_COMPOSE_H */
