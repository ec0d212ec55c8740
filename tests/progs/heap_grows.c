/*
 * heap_grows: allocates blocks of 1 MiB, one malloc each (each walked
 * through this program's own code), until one fails, then says how many
 * it got. Under a limit on address space (ulimit -v) that is how much
 * room the limit left it. The big-module-file test runs a copy whose file
 * carries a large section that is never loaded, as a binary with its
 * debug info does. The blocks are never touched: address space, not memory.
 */
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
	int got = 0;
	while (got < 1 << 20 && malloc(1 << 20))
		got++;
	printf("allocated %d MiB\n", got);
	return 0;
}
