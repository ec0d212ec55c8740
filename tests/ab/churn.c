/*
 * An allocator-heavy toy for the gittrace-ab smoke test: builds and frees
 * linked lists of small nodes, N rounds (argv[1], default 200). Prints a
 * checksum so the work cannot be optimized away. Not timed by any test.
 */
#include <stdio.h>
#include <stdlib.h>

struct node {
	struct node *next;
	unsigned long value;
};

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? strtol(argv[1], NULL, 10) : 200;
	unsigned long sum = 0;
	for (long r = 0; r < rounds; r++) {
		struct node *head = NULL;
		for (unsigned long i = 0; i < 2000; i++) {
			struct node *n = malloc(sizeof(*n) + (i % 7) * 8);
			if (!n)
				return 1;
			n->value = i * (unsigned long)r;
			n->next = head;
			head = n;
		}
		while (head) {
			struct node *next = head->next;
			sum += head->value;
			free(head);
			head = next;
		}
	}
	printf("%lu\n", sum);
	return 0;
}
