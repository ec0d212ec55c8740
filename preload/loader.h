/*
 * What the dynamic loader says of its modules (loader.c): their list, and
 * how many it has loaded and unloaded so far, whoever asked for it, dlopen
 * or glibc itself. In a forked child the list is the parent's, as it was
 * at the parent's last full listing: the loader's lock may be held there
 * forever (see loader.c).
 */
#ifndef GT_LOADER_H
#define GT_LOADER_H

#include <link.h>
#include <stddef.h>

/*
 * dl_iterate_phdr for the tracer: the modules, in the loader's order, to
 * callback until it returns non-zero (which it returns), else 0.
 */
int gt_loader_modules(int (*callback)(struct dl_phdr_info *info, size_t size, void *data),
		      void *data);

struct gt_loader_counts {
	unsigned long long adds, subs; /* dl_iterate_phdr's dlpi_adds and dlpi_subs */
};

/* Fills *counts; -1 if the loader listed no module. Takes the loader's lock briefly. */
int gt_loader_counts(struct gt_loader_counts *counts);

/* In a forked child, before any other call here (lifecycle.c). */
void gt_loader_forked(void);

#endif /* GT_LOADER_H */
