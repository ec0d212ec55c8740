/*
 * macOS interposition (not built on Linux; untested here, see README).
 *
 * dyld binds through `__DATA,__interpose` tuples {replacement, original}
 * for every image except the one that holds the table, so inside
 * libgittrace the names below still reach the system's functions: the
 * "real" pointers are simply those functions. Functions macOS lacks
 * (mmap64, memalign, pvalloc, execvpe) are left out.
 */
#include "internal.h"

#include <malloc/malloc.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include <dlfcn.h>

#define GT_DARWIN_HOOKS(X)                                                                         \
	X(malloc)                                                                                  \
	X(calloc)                                                                                  \
	X(realloc)                                                                                 \
	X(reallocarray)                                                                            \
	X(free)                                                                                    \
	X(posix_memalign)                                                                          \
	X(aligned_alloc)                                                                           \
	X(valloc)                                                                                  \
	X(mmap)                                                                                    \
	X(munmap)                                                                                  \
	X(execve)                                                                                  \
	X(execv)                                                                                   \
	X(execvp)                                                                                  \
	X(exit)                                                                                    \
	X(_exit)                                                                                   \
	X(_Exit)                                                                                   \
	X(dlopen)

#define GT_REAL(name) __typeof__(name) *gt_real_##name = name;
GT_DARWIN_HOOKS(GT_REAL)

void gt_resolve_real(void)
{
}

struct gt_interpose {
	const void *replacement;
	const void *original;
};

#define GT_TUPLE(name) {(const void *)gt_hook_##name, (const void *)name},
__attribute__((used, section("__DATA,__interpose"))) static const struct gt_interpose
	gt_interpose_table[] = {GT_DARWIN_HOOKS(GT_TUPLE)};
