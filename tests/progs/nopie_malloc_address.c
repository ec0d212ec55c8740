/*
 * Built without PIE, takes malloc's address in its code, as Debian's
 * python3 does: malloc's address is then this program's PLT entry in every
 * module, and calls through it go to the first definition in the search
 * order (libgittrace's hook). Makes 1000 calls of malloc(5237) directly and
 * one through the address.
 */
#include <stdio.h>
#include <stdlib.h>

void *(*volatile allocate)(size_t);

int main(void)
{
	allocate = malloc;
	for (int i = 0; i < 1000; i++) {
		void *volatile p = malloc(5237);
		free(p);
	}
	free(allocate(5237));
	printf("done\n");
	return 0;
}
