/*
 * Loads, calls and unloads two libraries in turns (dlclose_lib_a.c and
 * dlclose_lib_b.c), which are likely to land at the same address: each
 * allocates through frames of its own (1001 bytes in a, 2002 in b). The
 * subject of capture.dlclose: the stack walk must let go of the rules it
 * read for an unloaded library, and must not grow with each unload.
 *
 * usage: dlclose_loop ROUNDS LIB_A LIB_B
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: dlclose_loop ROUNDS LIB_A LIB_B\n");
		return 2;
	}
	int rounds = atoi(argv[1]);
	for (int i = 0; i < rounds; i++) {
		int b = i % 2;
		void *lib = dlopen(argv[2 + b], RTLD_NOW | RTLD_LOCAL);
		if (!lib) {
			fprintf(stderr, "dlclose_loop: %s\n", dlerror());
			return 1;
		}
		void *(*alloc)(size_t) = (void *(*)(size_t))dlsym(lib, b ? "gt_test_alloc_in_b"
									 : "gt_test_alloc_in_a");
		if (!alloc) {
			fprintf(stderr, "dlclose_loop: %s\n", dlerror());
			return 1;
		}
		free(alloc(b ? 2002 : 1001));
		if (dlclose(lib)) {
			fprintf(stderr, "dlclose_loop: %s\n", dlerror());
			return 1;
		}
	}
	return 0;
}
