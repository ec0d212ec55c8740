/*
 * The caller's stack from the frame rules, reusing what is unchanged since
 * the thread's previous walk (stack_walk.c, x86-64 Linux; elsewhere
 * stack_walk_none.c: every walk is GT_WALK_UNABLE).
 */
#ifndef GT_STACK_WALK_H
#define GT_STACK_WALK_H

#include <stdint.h>

/* A stack the walk cannot follow: ask libunwind. */
#define GT_WALK_UNABLE (-1)

/* Makes the key that releases a thread's walks when it exits. */
void gt_stack_walk_init(void);

/* A dlclose returned: if a module was unloaded, what walks knew of code is let go. */
void gt_stack_walk_after_dlclose(void);

/* Tracing stopped for want of memory: the walk gives back what it can (frame_rules.h). */
void gt_stack_walk_give_back(void);

/*
 * Fills ips with return addresses, innermost first, at most limit of
 * them, starting with the first frame outside [own_start, own_end): the
 * tracer's own code, built with frame pointers. Returns how many, or
 * GT_WALK_UNABLE; a walk off the thread's own stack (a coroutine's, an
 * alternate signal stack) returns the frames it could read, never
 * GT_WALK_UNABLE, as libunwind would read that stack unchecked. Most walks
 * take no lock, allocate nothing and make no system call; a walk off the
 * thread's stack makes one (process_vm_readv). A thread's first walk maps
 * the memory its walks are kept in (gt_pages) and registers it to be freed
 * at thread exit; a frame never seen has its rule read under the fork
 * guard (fork_guard.h).
 */
int gt_stack_walk(uintptr_t *ips, int limit, uintptr_t own_start, uintptr_t own_end);

#endif /* GT_STACK_WALK_H */
