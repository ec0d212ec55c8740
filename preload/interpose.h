/*
 * How a hook is named on each platform, and how it reaches the function it
 * replaces: the interface that interpose_{linux,darwin}.c implement.
 *
 * Linux (interpose_linux.c): LD_PRELOAD puts libgittrace first in the
 * symbol search order, so a hook simply *is* `malloc`, exported; the real
 * one is found with dlsym(RTLD_NEXT).
 *
 * macOS (interpose_darwin.c): dyld's two-level namespace ignores that
 * order; instead a `__DATA,__interpose` table pairs each hook with the
 * function it replaces, so hooks get names of their own and the real
 * function is called directly by name.
 */
#ifndef GT_INTERPOSE_H
#define GT_INTERPOSE_H

#define GT_EXPORT __attribute__((visibility("default")))

#ifdef __APPLE__
#define GT_HOOK_NAME(name) gt_hook_##name
/* hooks.def names Linux's mmap64; macOS's off_t is 64 bits and has no off64_t. */
#include <sys/types.h>
typedef off_t off64_t;
#else
#define GT_HOOK_NAME(name) name
#endif

/* The types hooks.def names. */
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/* Pointers to the real functions, NULL until gt_resolve_real() ran (interpose_*.c). */
#define GT_HOOK(ret, name, params) extern ret(*gt_real_##name) params;
#include "hooks.def"

/*
 * Looks up every real function (interpose_*.c). Safe to call from any hook,
 * any number of times: the first call resolves; calls made while dlsym runs
 * (it may allocate) see NULL pointers and are served by the arena
 * (bootstrap.h).
 */
void gt_resolve_real(void);

/*
 * Whether the program's calls of malloc reach libgittrace's hook, after
 * gt_resolve_real(): not when another allocator comes before it in
 * LD_PRELOAD, or the program defines malloc itself. There, the tracer's
 * work inside a hook (libdw reading a module's call frame information)
 * allocated from that allocator while it held its own lock: the program
 * hung at its start.
 */
int gt_hooks_in_front(void);

/*
 * The realloc the program's own calls reach where another malloc comes
 * before ours (gt_hooks_in_front) and that realloc is not libgittrace's
 * hook either (NULL otherwise): it alone may take that malloc's blocks.
 * glibc's reallocarray calls realloc through its PLT, so the reallocarray
 * hook, which an allocator without one leaves to libgittrace, must call
 * that one too: glibc's realloc aborted on a block of jemalloc's (`sort`
 * under jemalloc before libgittrace.so). Looked up once.
 */
void *(*gt_realloc_in_front(void))(void *, size_t);

#endif /* GT_INTERPOSE_H */
