/*
 * Finds the loaded module that contains an address, the way the preload
 * records its module map: path, load bias and GNU build-id.
 */
#ifndef GT_MODULE_OF_H
#define GT_MODULE_OF_H

#include <stddef.h>
#include <stdint.h>

struct gt_module_of {
	char path[4096];      /* the main program's is /proc/self/exe resolved */
	uint64_t bias;	      /* load bias: address = bias + ELF vaddr */
	uint8_t build_id[64]; /* raw bytes */
	size_t build_id_len;  /* 0 if the module has none */
	int is_main;	      /* 1 for the main program */
};

/* Fills *out for the module whose PT_LOAD segments contain addr. Returns 0,
 * or -1 if no loaded module contains it. */
int gt_module_of(const void *addr, struct gt_module_of *out);

#endif /* GT_MODULE_OF_H */
