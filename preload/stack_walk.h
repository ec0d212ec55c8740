/*
 * The caller's stack from the frame rules, reusing what is unchanged since
 * the thread's previous walk (stack_walk.c). x86-64 Linux (GT_OWN_WALK, set
 * by CMake); elsewhere every walk is GT_WALK_UNABLE.
 */
#ifndef GT_STACK_WALK_H
#define GT_STACK_WALK_H

#include <stdint.h>

enum {
	GT_WALK_UNABLE = -1,  /* a frame this walk cannot follow: ask libunwind */
	GT_WALK_MISSING = -2, /* *missing has no rule yet: learn it, walk again */
};

/* Makes the key that releases a thread's walks when it exits. */
void gt_stack_walk_init(void);

/*
 * Fills ips with return addresses, innermost first, at most limit of
 * them, starting with the first frame outside [own_start, own_end): the
 * tracer's own code, built with frame pointers. Returns how many, or one
 * of the codes above. No lock, no allocation, no system call.
 */
int gt_stack_walk(uintptr_t *ips, int limit, uintptr_t own_start, uintptr_t own_end,
		  uintptr_t *missing);

#endif /* GT_STACK_WALK_H */
