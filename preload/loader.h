/*
 * What the dynamic loader says of its modules (loader.c): how many it has
 * loaded and unloaded so far, whoever asked for it, dlopen or glibc itself.
 */
#ifndef GT_LOADER_H
#define GT_LOADER_H

struct gt_loader_counts {
	unsigned long long adds, subs; /* dl_iterate_phdr's dlpi_adds and dlpi_subs */
};

/* Fills *counts; -1 if the loader listed no module. Takes the loader's lock briefly. */
int gt_loader_counts(struct gt_loader_counts *counts);

#endif /* GT_LOADER_H */
