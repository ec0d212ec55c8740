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
 * shared hooks_*.c link on macOS as they do on Linux: those macOS has
 * point at the system's functions and are interposed (GT_DARWIN_HOOKS,
 * whose comment says why each other one is not); execvpe, which macOS
 * lacks but the execvp hook calls (to pass the run's environment on), is
 * a PATH search with that environment; the rest stay NULL, their hooks
 * never reached.
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
 * The hooks interposed on macOS: the system has each of them. Every other
 * hook of hooks.def is left out:
 *   - memalign, pvalloc, reallocarray, quick_exit and __libc_start_main:
 *     glibc's (on macOS main's return reaches the interposed exit);
 *   - daemon: for glibc's, whose parent ends past the _exit hook;
 *   - mmap64, mremap, execveat and clone: Linux's; fexecve: not in macOS;
 *   - execvpe: the stand-in below, which calls the interposed execvp;
 *   - system, popen and wordexp: macOS's reach the interposed posix_spawn
 *     or exec functions;
 *   - the files CMakeLists.txt builds on Linux alone: pipe2, read, close,
 *     fcntl, fcntl64, dup, dup2, dup3 and ioctl (hooks_fd.c: libunwind's
 *     pipe), prctl (hooks_sandbox.c) and syscall (hooks_syscall.c:
 *     seccomp), fork (hooks_fork.c: pthread_atfork serves), sigaction and
 *     signal (hooks_signal.c: the trace is not written from a signal that
 *     ends the program).
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

int gt_other_copy_in_front(void)
{
	return 0;
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
