/* A page given back and faulted in again, timed. See page_cycle.h. */
#include "page_cycle.h"
#include "clock.h"
#include "pages.h"

#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

/*
 * 32 pages: below a huge page, so that each write faults in one page as a
 * trimmed heap's does; 2 rounds after the first writes, about 0.2 ms in
 * all at a run's start.
 */
#define PAGES  32
#define ROUNDS 2

uint64_t gt_page_cycle_ns(void)
{
	long page = sysconf(_SC_PAGESIZE);
	if (page <= 0)
		return 0;
	size_t size = (size_t)page * PAGES;
	volatile char *p = gt_pages(size);
	if (!p)
		return 0;
	for (size_t i = 0; i < size; i += (size_t)page)
		p[i] = 1; /* a new map's first faults: not what a heap's refault costs */
	uint64_t least = UINT64_MAX;
	for (int r = 0; r < ROUNDS; r++) {
		uint64_t start = gt_now_ns();
		if (syscall(SYS_madvise, (void *)p, size, MADV_DONTNEED)) {
			least = 0; /* not measured */
			break;
		}
		for (size_t i = 0; i < size; i += (size_t)page)
			p[i] = 1;
		uint64_t took = gt_now_ns() - start;
		if (took < least)
			least = took;
	}
	gt_pages_free((void *)p, size);
	return least / PAGES;
}
