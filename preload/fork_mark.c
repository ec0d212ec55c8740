/*
 * The fork mark (fork_mark.h): a word alone in a page that the kernel
 * gives every forked child zero-filled (MADV_WIPEONFORK, Linux 4.14),
 * however the fork was made; a child made with CLONE_VM (vfork, a
 * thread) shares the page. Reading it costs a hook one load.
 */
#include "fork_mark.h"
#include "pages.h"

#include <sys/mman.h>
#include <unistd.h>

static const int always_set = 1;
const int *gt_fork_mark = &always_set;
static int *page; /* the mark's page, once it works */

void gt_fork_mark_init(void)
{
#ifdef MADV_WIPEONFORK
	size_t size = (size_t)sysconf(_SC_PAGESIZE);
	int *p = gt_pages(size);
	if (!p)
		return;
	if (madvise(p, size, MADV_WIPEONFORK) != 0) {
		gt_pages_free(p, size);
		return;
	}
	page = p;
	gt_fork_mark_set();
	gt_fork_mark = page;
#endif
}

int gt_fork_mark_works(void)
{
	return page != NULL;
}

void gt_fork_mark_set(void)
{
	if (page)
		__atomic_store_n(page, 1, __ATOMIC_RELAXED);
}
