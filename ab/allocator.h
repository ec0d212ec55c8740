/*
 * Turns an allocator name into the shared library to preload: "system"
 * (none), "mimalloc", "jemalloc", or a path to any shared library.
 */
#ifndef GT_AB_ALLOCATOR_H
#define GT_AB_ALLOCATOR_H

/*
 * Returns NULL for "system", else a malloc'd path that exists: for
 * "mimalloc" and "jemalloc", Debian's libmimalloc.so.2 / libjemalloc.so.2
 * (packages libmimalloc2.0, libjemalloc2) in the multiarch directory that
 * holds the running libc, found at run time; a name containing '/' is a
 * path, made absolute so that a command running in another directory
 * (--template) still finds it. Dies (exit 1) when the library is not
 * there, naming the package to install; dies with a usage error (exit 2)
 * for any other name.
 */
char *gt_ab_allocator_resolve(const char *name);

#endif /* GT_AB_ALLOCATOR_H */
