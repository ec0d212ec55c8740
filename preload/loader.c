/*
 * The loader's modules. See loader.h.
 *
 * dl_iterate_phdr takes the loader's lock, which glibc's fork does not
 * reset in the child. A thread of the parent inside dlopen, dlclose or
 * dl_iterate_phdr at the fork leaves it held forever there, and the
 * tracer's child that asked the loader for its modules (to announce them,
 * or to read the frame rules of new code) hung. So each full listing the
 * tracer makes is kept, and a forked child lists what was kept: its
 * modules are its parent's. Modules a child loads itself are not seen:
 * no MODULE record, and stacks through them are libunwind's (frame_rules.c
 * finds no rules there). A child can load one only if the lock was free.
 */
#include "loader.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Modules a listing keeps; a longer one is not kept. */
#define GT_LOADER_KEPT 1024

struct listing {
	size_t n;
	struct dl_phdr_info info[GT_LOADER_KEPT];
};

/*
 * Two listings: one being made, under the mutex, while the other, the
 * last full one, stays whole for a child forked meanwhile. In .bss: only
 * the pages used are memory.
 */
static struct listing listings[2];
static _Atomic int kept = -1; /* the index of the last full listing, or -1 */
static pthread_mutex_t making = PTHREAD_MUTEX_INITIALIZER;
static int forked; /* in a forked child: list what was kept */

struct walk {
	int (*callback)(struct dl_phdr_info *, size_t, void *);
	void *data;
	struct listing *into; /* NULL: another thread makes the listing */
	int overflow;
};

static int keep_and_call(struct dl_phdr_info *info, size_t size, void *data)
{
	struct walk *w = data;
	if (w->into && w->into->n < GT_LOADER_KEPT) {
		struct dl_phdr_info *to = &w->into->info[w->into->n++];
		memset(to, 0, sizeof(*to));
		memcpy(to, info, size < sizeof(*to) ? size : sizeof(*to));
	} else if (w->into) {
		w->overflow = 1;
	}
	return w->callback(info, size, w->data);
}

/*
 * Whether a kept module's program headers are still mapped: one unloaded
 * since it was kept (dlclose, before the fork) is skipped, not read.
 */
static int still_mapped(const struct dl_phdr_info *info)
{
	uintptr_t page = (uintptr_t)getpagesize();
	uintptr_t start = (uintptr_t)info->dlpi_phdr & ~(page - 1);
	uintptr_t end = (uintptr_t)(info->dlpi_phdr + info->dlpi_phnum);
	unsigned char resident[4];
	/* Program headers take a page or two: more is not a module's. */
	if (end <= start || end - start > sizeof(resident) * page)
		return 0;
	return mincore((void *)start, end - start, resident) == 0;
}

static int list_kept(int index, int (*callback)(struct dl_phdr_info *, size_t, void *), void *data)
{
	const struct listing *l = &listings[index];
	for (size_t i = 0; i < l->n; i++) {
		struct dl_phdr_info info = l->info[i];
		if (!still_mapped(&info))
			continue;
		int ret = callback(&info, sizeof(info), data);
		if (ret)
			return ret;
	}
	return 0;
}

int gt_loader_modules(int (*callback)(struct dl_phdr_info *info, size_t size, void *data),
		      void *data)
{
	if (forked && atomic_load(&kept) >= 0)
		return list_kept(atomic_load(&kept), callback, data);
	struct walk w = {callback, data, NULL, 0};
	int making_here = pthread_mutex_trylock(&making) == 0;
	if (making_here) {
		/* Read under the mutex: only its holder changes it. */
		w.into = &listings[atomic_load(&kept) == 0 ? 1 : 0];
		w.into->n = 0;
	}
	int ret = dl_iterate_phdr(keep_and_call, &w);
	if (making_here) {
		/* A listing the callback stopped is not whole. */
		if (ret == 0 && !w.overflow)
			atomic_store(&kept, (int)(w.into - listings));
		pthread_mutex_unlock(&making);
	}
	return ret;
}

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
	return gt_loader_modules(first_module, counts) == 1 ? 0 : -1;
}

void gt_loader_forked(void)
{
	forked = 1;
}
