/*
 * alloc-churn: an allocator-bound workload for gittrace's examples. It keeps
 * a pool of small nodes and churns it - free a node, allocate a new one of
 * another size in its place, plus one short-lived block - doing almost
 * nothing else. Sizes run up to 8 KiB, past glibc's per-thread cache, so
 * most calls take the allocator's slower paths (bins, splitting, merging),
 * as in a program that builds and drops many strings and structs. Expected
 * verdict: allocator-bound.
 *
 * usage: alloc-churn [OPERATIONS]   (default 3000000)
 * Deterministic: a fixed-seed generator chooses sizes and positions; prints
 * a checksum of the final pool so the work cannot be optimised away.
 */
#include <stdio.h>
#include <stdlib.h>

#define LIVE_NODES 4096

struct node {
	size_t size;
	char payload[];
};

static unsigned long long rng = 88172645463325252ull;

/* xorshift64: fixed seed, same sequence everywhere. */
static unsigned long long next_random(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static struct node *new_node(void)
{
	size_t size = 16 + next_random() % 8192;
	struct node *n = malloc(sizeof(*n) + size);
	if (!n) {
		fprintf(stderr, "alloc-churn: out of memory\n");
		exit(1);
	}
	n->size = size;
	n->payload[0] = (char)size;
	return n;
}

int main(int argc, char **argv)
{
	long ops = argc > 1 ? atol(argv[1]) : 3000000;
	struct node *slots[LIVE_NODES];

	if (ops <= 0) {
		fprintf(stderr, "usage: alloc-churn [OPERATIONS]\n");
		return 2;
	}
	for (int i = 0; i < LIVE_NODES; i++)
		slots[i] = new_node();
	for (long op = 0; op < ops; op++) {
		int i = (int)(next_random() % LIVE_NODES);
		free(slots[i]);
		slots[i] = new_node();
		/* And one short-lived block of another size, as temporary strings are. */
		char *tmp = malloc(32 + (size_t)(op % 4000));
		if (!tmp)
			return 1;
		tmp[0] = (char)op;
		free(tmp);
	}
	unsigned long sum = 0;
	for (int i = 0; i < LIVE_NODES; i++) {
		sum += slots[i]->size + (unsigned char)slots[i]->payload[0];
		free(slots[i]);
	}
	printf("alloc-churn: %ld operations, checksum %lu\n", ops, sum);
	return 0;
}
