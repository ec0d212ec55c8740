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
#include <wordexp.h>

/* Pointers to the real functions, NULL until gt_resolve_real() ran (interpose_*.c). */
#define GT_HOOK(ret, name, params) extern ret(*gt_real_##name) params;
#include "hooks.def"

/*
 * Looks up every real function (interpose_*.c). Safe to call from any hook,
 * any number of times: the first call resolves; calls made while dlsym runs
 * (it may allocate) see NULL pointers and are served by the arena
 * (bootstrap.h). Not from the malloc family's hooks while a sanitizer's
 * runtime starts (gt_sanitizer_starting).
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
 * Whether the malloc in front is another copy of this library (a file of
 * the same name elsewhere, both in LD_PRELOAD): that copy traces the
 * process, and calls this one's hooks as its real functions.
 */
int gt_other_copy_in_front(void);

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

/*
 * The file name of a sanitizer's runtime loaded as a library (gcc's
 * -fsanitize=address or thread, clang's with -shared-libsan), NULL if none.
 * Its allocator serves the program, its interceptors stand before libc,
 * and ASan insists on coming first: the tracer stays off there.
 */
const char *gt_sanitizer_runtime(void);

/*
 * Whether such a runtime may still be starting. It starts in the program's
 * preinit functions, before any library's constructor, and its
 * interceptors of libc (sigfillset, open, write) have no real function to
 * call yet, nor does its malloc work: its dlsym's failed lookups allocate
 * through our hooks, which must not look up the real functions then, and
 * the arena serves them (hooks_alloc.c); tracing must not start either
 * (lifecycle.c). Which call ends its start is not known: until our
 * constructor or the first lookup, which any hook but the malloc family's
 * makes (the runtime makes none of those calls through us), and which the
 * malloc family's makes once the arena is full (the runtime's start takes
 * a few hundred bytes; the constructors of the program's libraries, run
 * before ours, may take more).
 */
int gt_sanitizer_starting(void);

#endif /* GT_INTERPOSE_H */
