/*
 * The libraries of dlclose_loop.c, built twice: LIB names the functions
 * (a or b) and PAD sizes their frames. Both are built without frame
 * pointers and with paddings that take the same instruction lengths, so
 * the code of a and b lies at the same offsets while their frames differ:
 * a's frame rules, used on b's code at the same address, give wrong stacks.
 */
#include <stdlib.h>

#define NAME2(prefix, lib) prefix##lib
#define NAME(prefix, lib)  NAME2(prefix, lib)

static volatile char sink;

__attribute__((noinline)) static void *NAME(inner_, LIB)(size_t size)
{
	volatile char pad[PAD];
	pad[0] = (char)size;
	sink = pad[0];
	void *volatile p = malloc(size);
	return p;
}

void *NAME(gt_test_alloc_in_, LIB)(size_t size)
{
	volatile char pad[PAD];
	pad[PAD - 1] = 1;
	void *p = NAME(inner_, LIB)(size);
	sink = pad[PAD - 1];
	return p;
}
