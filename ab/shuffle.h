/*
 * The seeded random order of the variants inside each round. The same
 * seed gives the same orders on every machine (splitmix64, then an
 * unbiased Fisher-Yates shuffle), so a run can be repeated exactly.
 */
#ifndef GT_AB_SHUFFLE_H
#define GT_AB_SHUFFLE_H

#include <stddef.h>
#include <stdint.h>

struct gt_ab_rng {
	uint64_t state;
};

void gt_ab_rng_init(struct gt_ab_rng *rng, uint32_t seed);

/* A uniformly distributed number in [0, n); n > 0. */
size_t gt_ab_rng_below(struct gt_ab_rng *rng, size_t n);

/* Fills order[0..n) with a random permutation of 0..n-1. */
void gt_ab_shuffle(struct gt_ab_rng *rng, size_t *order, size_t n);

/* A seed for when none is given: from the kernel's random source, else
 * from the clock and the pid. */
uint32_t gt_ab_seed_default(void);

#endif /* GT_AB_SHUFFLE_H */
