/*
 * What a heap page given back to the kernel and faulted in again costs this
 * machine, measured once per run (format.h, IMAGE page_cycle_ns). glibc
 * trims a churning heap (brk, madvise) and faults the pages in again; an
 * allocator that keeps freed memory saves that. The report prices those
 * refaults with it: the process's system time per fault holds every other
 * system call too (a run that reads 24,000 loose objects priced a fault at
 * 6 µs, where giving a page back and writing it again took 1.4 µs).
 */
#ifndef GT_PAGE_CYCLE_H
#define GT_PAGE_CYCLE_H

#include <stdint.h>

/* Nanoseconds a page, the least of a few rounds; 0 if it could not be measured. */
uint64_t gt_page_cycle_ns(void);

#endif /* GT_PAGE_CYCLE_H */
