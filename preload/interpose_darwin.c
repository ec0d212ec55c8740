/*
 * macOS interposition (not built on Linux; its syntax is checked there by
 * tests/darwin, see README "macOS").
 *
 * dyld binds through `__DATA,__interpose` tuples {replacement, original}
 * for every image except the one that holds the table, so inside
 * libgittrace the names below still reach the system's functions: the
 * "real" pointers are simply those functions.
 *
 * Every hook of hooks.def has its real-function pointer here, so the
 * shared hooks_*.c link on macOS as they do on Linux:
 *   - functions macOS has are interposed and point at the system's;
 *   - execvpe, which macOS lacks but the execvp hook calls (to pass the
 *     run's environment on), is a PATH search with that environment;
 *   - the rest macOS lacks (memalign, pvalloc, reallocarray, mmap64,
 *     mremap, fexecve, glibc's __libc_start_main, pipe2, prctl: see each
 *     below)
 *     stay NULL and are not interposed: nothing on macOS calls them, so
 *     their hooks are never reached. read and close need no steering: the
 *     pipe that hooks_fd.c keeps off the program's descriptors is libunwind
 *     1.6's on Linux, and hooks_fd.c is not built here.
 */
#include "interpose.h"
#include "tracer.h"

#include <dlfcn.h>
#include <malloc/malloc.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

extern char **environ;

/* Every pointer hooks.def declares; gt_resolve_real() sets those macOS has. */
#define GT_HOOK(ret, name, params) ret(*gt_real_##name) params;
#include "hooks.def"

/*
 * The hooks interposed on macOS: the system has each of them. Left out:
 * memalign, pvalloc and reallocarray (glibc's, not in macOS's libc),
 * mmap64 and mremap (Linux), fexecve (not in macOS), __libc_start_main
 * (glibc's start-up; on macOS main's return reaches the interposed exit),
 * system, popen and wordexp (macOS's reach the interposed posix_spawn or
 * exec functions), pipe2,
 * read and close (hooks_fd.c, Linux only), prctl (hooks_sandbox.c, Linux
 * only).
 */
#define GT_DARWIN_HOOKS(X)                                                                         \
	X(malloc)                                                                                  \
	X(calloc)                                                                                  \
	X(realloc)                                                                                 \
	X(free)                                                                                    \
	X(posix_memalign)                                                                          \
	X(aligned_alloc)                                                                           \
	X(valloc)                                                                                  \
	X(mmap)                                                                                    \
	X(munmap)                                                                                  \
	X(execve)                                                                                  \
	X(execv)                                                                                   \
	X(execvp)                                                                                  \
	X(pthread_create)                                                                          \
	X(posix_spawn)                                                                             \
	X(posix_spawnp)                                                                            \
	X(exit)                                                                                    \
	X(_exit)                                                                                   \
	X(_Exit)                                                                                   \
	X(dlopen)                                                                                  \
	X(dlclose)

/* The hooks themselves (hooks_*.c), named gt_hook_<name> here (interpose.h). */
#define GT_HOOK(ret, name, params) ret GT_HOOK_NAME(name) params;
#include "hooks.def"
int GT_HOOK_NAME(execl)(const char *path, const char *arg, ...);
int GT_HOOK_NAME(execlp)(const char *file, const char *arg, ...);
int GT_HOOK_NAME(execle)(const char *path, const char *arg, ...);

/*
 * execvp with an environment: macOS has no execvpe. environ points at the
 * new environment until the exec succeeds, and back at the process's own
 * if it fails; another thread reading environ meanwhile sees a whole
 * environment either way.
 */
static int darwin_execvpe(const char *file, char *const argv[], char *const envp[])
{
	char **saved = environ;
	environ = (char **)envp;
	int r = execvp(file, argv);
	environ = saved;
	return r;
}

void gt_resolve_real(void)
{
#define GT_REAL(name) gt_real_##name = name;
	GT_DARWIN_HOOKS(GT_REAL)
#undef GT_REAL
	gt_real_execvpe = darwin_execvpe;
	/* libsystem_malloc takes its memory from the kernel, not through mmap. */
	gt_real_call_guard = GT_GUARD_HOOK;
}

int gt_hooks_in_front(void)
{
	return 1; /* the interpose table, not an order, binds the calls */
}

void *(*gt_realloc_in_front(void))(void *, size_t)
{
	return NULL;
}

/* Not looked for on macOS: no sanitized program was tried there. */
const char *gt_sanitizer_runtime(void)
{
	return NULL;
}

int gt_sanitizer_starting(void)
{
	return 0;
}

struct gt_interpose {
	const void *replacement;
	const void *original;
};

#define GT_TUPLE(name) {(const void *)GT_HOOK_NAME(name), (const void *)name},
__attribute__((
	used,
	section("__DATA,__interpose"))) static const struct gt_interpose gt_interpose_table[] = {
	GT_DARWIN_HOOKS(GT_TUPLE) GT_TUPLE(execl) GT_TUPLE(execlp) GT_TUPLE(execle)};
