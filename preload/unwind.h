/* The caller's stack, from our own walk or libunwind (unwind.c). */
#ifndef GT_UNWIND_H
#define GT_UNWIND_H

#include <stdint.h>

/*
 * Fills ips with the caller's return addresses, innermost first, without
 * the tracer's own frames. Returns how many (at most max). Runs with the
 * guard held; may allocate through libunwind or libdw (passes through
 * untraced).
 */
int gt_unwind(uintptr_t *ips, int max);

/* Records the address ranges of libgittrace and libunwind. */
void gt_unwind_init(void);

/*
 * Whether a hooked call comes from libunwind itself. Its per-thread cache
 * is released by a thread-exit destructor, outside the tracer's guard:
 * that munmap/free is the tracer's, not the program's, and is not recorded.
 */
int gt_called_by_unwinder(const void *return_address);

#endif /* GT_UNWIND_H */
