/*
 * The loader's counts of modules loaded and unloaded. See loader.h.
 */
#include "loader.h"

#include <link.h>

static int first_module(struct dl_phdr_info *info, size_t size, void *counts)
{
	(void)size;
	struct gt_loader_counts *c = counts;
	c->adds = info->dlpi_adds;
	c->subs = info->dlpi_subs;
	return 1; /* every module carries the same counts */
}

int gt_loader_counts(struct gt_loader_counts *counts)
{
	return dl_iterate_phdr(first_module, counts) == 1 ? 0 : -1;
}
