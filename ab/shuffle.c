/* Seeded random orders (see shuffle.h). */
#define _GNU_SOURCE
#include "shuffle.h"

#include <sys/random.h>
#include <time.h>
#include <unistd.h>

void gt_ab_rng_init(struct gt_ab_rng *rng, uint32_t seed)
{
	rng->state = seed;
}

/* splitmix64 (Steele, Lea, Flood 2014): well mixed even from seeds 0, 1, 2. */
static uint64_t next(struct gt_ab_rng *rng)
{
	uint64_t z = (rng->state += 0x9e3779b97f4a7c15u);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

size_t gt_ab_rng_below(struct gt_ab_rng *rng, size_t n)
{
	/* Reject the top partial stretch so that every residue is equally likely. */
	uint64_t limit = UINT64_MAX - UINT64_MAX % n;
	uint64_t x;
	do
		x = next(rng);
	while (x >= limit);
	return (size_t)(x % n);
}

void gt_ab_shuffle(struct gt_ab_rng *rng, size_t *order, size_t n)
{
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	for (size_t i = n; i > 1; i--) {
		size_t j = gt_ab_rng_below(rng, i);
		size_t t = order[i - 1];
		order[i - 1] = order[j];
		order[j] = t;
	}
}

uint32_t gt_ab_seed_default(void)
{
	uint32_t seed;
	if (getrandom(&seed, sizeof(seed), GRND_NONBLOCK) == (ssize_t)sizeof(seed))
		return seed;
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint32_t)ts.tv_nsec ^ (uint32_t)ts.tv_sec ^ ((uint32_t)getpid() << 16);
}
