/*
 * Hooks at the edges of a process image. Before an exec or _exit the image
 * writes everything it holds and its END record, since no destructor will
 * run; exit() only notes the status for the destructor's END. Exec,
 * spawn, system and popen add the run's GITTRACE_SESSION, and libgittrace
 * in LD_PRELOAD, to the new program's environment (exec_env.c). dlopen
 * re-announces the module map so stacks through the new library resolve;
 * dlclose tells the stack walk that code it read rules for may be gone.
 */
#include "exec_env.h"
#include "image.h"
#include "interpose.h"
#include "lifecycle.h"
#include "pages.h"
#include "stack_walk.h"
#include "stream.h"
#include "tls.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

/*
 * Ends the image before an exec; the real exec follows. A vfork child
 * (gt_stream_is_ours) ends nothing: the image is its parent's, which goes
 * on; the program it execs starts an image of its own. It comes before the
 * new program's environment is built: an exec before tracing started (from
 * a library's constructor that runs before ours) starts it here, so that
 * the environment names the run's file.
 */
static void before_exec(void)
{
	if (!gt_enter_to_exec())
		return;
	if (gt_stream_is_ours())
		gt_image_end(GT_END_EXEC, -1);
	gt_leave();
	gt_end_child_forked_meanwhile(GT_END_EXEC, -1);
}

/* The exec returned, so it failed: the image goes on. */
static int after_failed_exec(int ret)
{
	int err = errno;
	if (gt_enter_to_exec()) {
		if (gt_stream_is_ours())
			gt_image_exec_failed(err);
		gt_leave();
	}
	errno = err;
	return ret;
}

/* Resolves the real functions if no hook has done so yet. */
static void need_real(void)
{
	if (!gt_real_execve)
		gt_resolve_real();
}

/*
 * A new environment's arrays: on the stack where they fit in GT_ENV_ROOM
 * bytes, as nearly every environment does, else in the tracer's pages: an
 * environment of 20,000 entries, built on a thread's small stack,
 * overflowed it. A vfork child (dash's, Python's subprocess) cannot give
 * pages back once its exec succeeded: they stay in its parent's memory.
 * Its arrays go in pages the thread keeps for its vfork children: the
 * parent's thread waits while one runs, so they serve one at a time, and
 * the next reuses them. Without them, an environment of 250 entries went
 * on without the run's entries: the program started a run of its own and
 * truncated the trace file.
 */
#define GT_ENV_ROOM 2048

static GT_TLS void *vfork_env_pages;
static GT_TLS size_t vfork_env_len;

/* len bytes of the thread's pages for its vfork children, or NULL. */
static void *vfork_child_pages(size_t len)
{
	if (vfork_env_len < len) {
		size_t want = len < 2 * vfork_env_len ? 2 * vfork_env_len : len;
		void *p = gt_pages(want);
		if (!p)
			return NULL;
		if (vfork_env_pages)
			gt_pages_free(vfork_env_pages, vfork_env_len);
		vfork_env_pages = p;
		vfork_env_len = want;
	}
	return vfork_env_pages;
}

struct new_env {
	char *const *env; /* what the real call gets */
	void *pages;	  /* the arrays, if not on the stack */
	size_t pages_len;
};

/* envp plus the run's entries, in room (GT_ENV_ROOM bytes) or, with room NULL, in pages. */
static char *const *new_env_in(struct new_env *e, char *const envp[], char *room)
{
	struct gt_exec_env need;
	gt_exec_env_measure(envp, &need);
	memset(e, 0, sizeof(*e));
	e->env = envp;
	if (!need.slots)
		return e->env;
	size_t slots_len = need.slots * sizeof(char *), len = slots_len + need.preload_len;
	char *arrays = room;
	if (!room || len > GT_ENV_ROOM) {
		int err = errno;
		int ours = gt_stream_is_ours();
		arrays = ours ? gt_pages(len) : vfork_child_pages(len);
		errno = err;
		if (!arrays)
			return e->env;
		if (ours) {
			e->pages = arrays;
			e->pages_len = len;
		}
	}
	return e->env = gt_exec_env_build(envp, &need, (char **)arrays, arrays + slots_len);
}

/* After the real call returned: its result and errno stay. */
static void new_env_out(const struct new_env *e)
{
	int err = errno;
	if (e->pages)
		gt_pages_free(e->pages, e->pages_len);
	errno = err;
}

/* Declares env: envp with what keeps the new program in the traced run (exec_env.c). */
#define GT_SESSION_ENV(env, envp)                                                                  \
	_Alignas(char *) char env##_room[GT_ENV_ROOM];                                             \
	struct new_env env##_new;                                                                  \
	char *const *env = new_env_in(&env##_new, envp, env##_room)

GT_EXPORT int GT_HOOK_NAME(execve)(const char *path, char *const argv[], char *const envp[])
{
	need_real();
	before_exec();
	GT_SESSION_ENV(env, envp);
	int ret = after_failed_exec(gt_real_execve(path, argv, env));
	new_env_out(&env_new);
	return ret;
}

/* execv and execvp use environ: they become execve and execvpe with it. */
GT_EXPORT int GT_HOOK_NAME(execv)(const char *path, char *const argv[])
{
	need_real();
	before_exec();
	GT_SESSION_ENV(env, environ);
	int ret = after_failed_exec(gt_real_execve(path, argv, env));
	new_env_out(&env_new);
	return ret;
}

GT_EXPORT int GT_HOOK_NAME(execvp)(const char *file, char *const argv[])
{
	need_real();
	before_exec();
	GT_SESSION_ENV(env, environ);
	int ret = after_failed_exec(gt_real_execvpe(file, argv, env));
	new_env_out(&env_new);
	return ret;
}

GT_EXPORT int GT_HOOK_NAME(execvpe)(const char *file, char *const argv[], char *const envp[])
{
	need_real();
	before_exec();
	GT_SESSION_ENV(env, envp);
	int ret = after_failed_exec(gt_real_execvpe(file, argv, env));
	new_env_out(&env_new);
	return ret;
}

GT_EXPORT int GT_HOOK_NAME(fexecve)(int fd, char *const argv[], char *const envp[])
{
	need_real();
	before_exec();
	GT_SESSION_ENV(env, envp);
	int ret = after_failed_exec(gt_real_fexecve(fd, argv, env));
	new_env_out(&env_new);
	return ret;
}

#ifdef __linux__
/*
 * glibc 2.34 and later have execveat(). Unhooked, it started the new
 * program as a run's first process, which truncated a trace file the user
 * named: a root's own environment does not carry the run (session.c).
 */
GT_EXPORT int GT_HOOK_NAME(execveat)(int dirfd, const char *path, char *const argv[],
				     char *const envp[], int flags)
{
	need_real();
	if (!gt_real_execveat) {
		errno = ENOSYS; /* a C library without it: the program cannot have called it */
		return -1;
	}
	before_exec();
	GT_SESSION_ENV(env, envp);
	int ret = after_failed_exec(gt_real_execveat(dirfd, path, argv, env, flags));
	new_env_out(&env_new);
	return ret;
}
#endif

/* A spawned program is a new image of a new process: nothing ends here. */
GT_EXPORT int GT_HOOK_NAME(posix_spawn)(pid_t *pid, const char *path,
					const posix_spawn_file_actions_t *actions,
					const posix_spawnattr_t *attr, char *const argv[],
					char *const envp[])
{
	need_real();
	gt_need_session();
	GT_SESSION_ENV(env, envp);
	int ret = gt_real_posix_spawn(pid, path, actions, attr, argv, env);
	new_env_out(&env_new);
	return ret;
}

GT_EXPORT int GT_HOOK_NAME(posix_spawnp)(pid_t *pid, const char *file,
					 const posix_spawn_file_actions_t *actions,
					 const posix_spawnattr_t *attr, char *const argv[],
					 char *const envp[])
{
	need_real();
	gt_need_session();
	GT_SESSION_ENV(env, envp);
	int ret = gt_real_posix_spawnp(pid, file, actions, attr, argv, env);
	new_env_out(&env_new);
	return ret;
}

/*
 * glibc's system(), popen() and wordexp() start /bin/sh with their own
 * posix_spawn, which no hook sees: the shell would find no
 * GITTRACE_SESSION, take itself for a new run and truncate the trace file
 * the user named (or, by default, write a file of its own). So environ
 * holds what the shell must inherit for the time of the call (the shell
 * gets a copy as it starts), and the program's own environment comes back
 * after. A thread that reads the environment meanwhile sees the run's
 * entries as well; one that adds a variable moves environ to a new array,
 * which keeps the run's entries, and their pages stay allocated; one that
 * changes a variable in place (setenv of one that exists, unsetenv) loses
 * that change when the program's array comes back (README, "Not
 * handled"). Copying such changes back was tried: a variable the program
 * set that only the run's entries held then outgrew the program's array,
 * and glibc's lock on the environment is not ours to take.
 */
struct environ_swap {
	char **own;	     /* the program's environ; NULL: left alone */
	struct new_env ours; /* what environ holds for the call: in pages of its own */
};

/* Points environ at its own entries plus what the run needs. */
static void swap_environ_in(struct environ_swap *s)
{
	s->own = NULL;
	if (new_env_in(&s->ours, environ, NULL) == environ)
		return; /* nothing to add, or no pages: the shell goes untraced */
	s->own = environ;
	environ = (char **)s->ours.env;
}

static void swap_environ_out(const struct environ_swap *s)
{
	if (!s->own || environ != s->ours.env)
		return; /* nothing swapped, or the program set an environment since */
	environ = s->own;
	new_env_out(&s->ours);
}

/* Declares swap: environ as the run needs it, until swap_environ_out(&swap). */
#define GT_RUN_ENVIRON(swap)                                                                       \
	need_real();                                                                               \
	gt_need_session();                                                                         \
	struct environ_swap swap;                                                                  \
	swap_environ_in(&swap)

GT_EXPORT int GT_HOOK_NAME(system)(const char *command)
{
	GT_RUN_ENVIRON(swap);
	int ret = gt_real_system(command);
	swap_environ_out(&swap);
	return ret;
}

GT_EXPORT FILE *GT_HOOK_NAME(popen)(const char *command, const char *type)
{
	GT_RUN_ENVIRON(swap);
	FILE *ret = gt_real_popen(command, type);
	swap_environ_out(&swap);
	return ret;
}

GT_EXPORT int GT_HOOK_NAME(wordexp)(const char *words, wordexp_t *we, int flags)
{
	if (flags & WRDE_NOCMD) {
		need_real();
		return gt_real_wordexp(words, we, flags);
	}
	GT_RUN_ENVIRON(swap);
	int ret = gt_real_wordexp(words, we, flags);
	swap_environ_out(&swap);
	return ret;
}

/*
 * The execl family: collect the variadic list into an array on the stack
 * (no allocation: the program may be in a forked child of a threaded
 * parent) and go through the hooks above.
 */
static size_t count_args(const char *arg0, va_list ap)
{
	size_t n = 1;
	for (const char *a = arg0; a; a = va_arg(ap, const char *))
		n++;
	return n;
}

#define GT_COLLECT_ARGS(argv, arg0, last)                                                          \
	va_list ap;                                                                                \
	va_start(ap, last);                                                                        \
	size_t argc_ = count_args(arg0, ap);                                                       \
	va_end(ap);                                                                                \
	char *argv[argc_];                                                                         \
	va_start(ap, last);                                                                        \
	argv[0] = (char *)(arg0);                                                                  \
	for (size_t i_ = 1; i_ < argc_; i_++)                                                      \
		argv[i_] = va_arg(ap, char *);

GT_EXPORT int GT_HOOK_NAME(execl)(const char *path, const char *arg, ...)
{
	GT_COLLECT_ARGS(argv, arg, arg)
	va_end(ap);
	return GT_HOOK_NAME(execv)(path, argv);
}

GT_EXPORT int GT_HOOK_NAME(execlp)(const char *file, const char *arg, ...)
{
	GT_COLLECT_ARGS(argv, arg, arg)
	va_end(ap);
	return GT_HOOK_NAME(execvp)(file, argv);
}

GT_EXPORT int GT_HOOK_NAME(execle)(const char *path, const char *arg, ...)
{
	GT_COLLECT_ARGS(argv, arg, arg)
	char *const *envp = va_arg(ap, char *const *);
	va_end(ap);
	return GT_HOOK_NAME(execve)(path, argv, envp);
}

GT_EXPORT void GT_HOOK_NAME(exit)(int status)
{
	need_real();
	gt_abandon_interrupted_hook(1); /* exit's handlers follow */
	gt_exit_status = gt_exit_code(status);
	gt_before_exit();
	gt_real_exit(status);
	__builtin_unreachable();
}

/*
 * libc calls exit() with main's return value internally, past the exit
 * hook; so main itself is wrapped, through the function that starts it.
 */
static int (*program_main)(int, char **, char **);

static int main_wrapper(int argc, char **argv, char **envp)
{
	int status = program_main(argc, argv, envp);
	gt_exit_status = gt_exit_code(status);
	return status;
}

GT_EXPORT int GT_HOOK_NAME(__libc_start_main)(int (*main)(int, char **, char **), int argc,
					      char **argv, void (*init)(void), void (*fini)(void),
					      void (*rtld_fini)(void), void *stack_end)
{
	need_real();
	program_main = main;
	return gt_real___libc_start_main(main_wrapper, argc, argv, init, fini, rtld_fini,
					 stack_end);
}

/*
 * _exit and _Exit skip destructors: end the image here (not a vfork
 * parent's). calls_follow: quick_exit's handlers'.
 */
static void end_before_underscore_exit(int status, int calls_follow)
{
	need_real();
	gt_end_image_abruptly(GT_END_UNDERSCORE_EXIT, gt_exit_code(status), calls_follow);
}

GT_EXPORT void GT_HOOK_NAME(_exit)(int status)
{
	end_before_underscore_exit(status, 0);
	gt_real__exit(status);
	__builtin_unreachable();
}

GT_EXPORT void GT_HOOK_NAME(_Exit)(int status)
{
	end_before_underscore_exit(status, 0);
	gt_real__Exit(status);
	__builtin_unreachable();
}

/*
 * quick_exit runs the at_quick_exit handlers and then ends the process
 * inside libc, past the _exit hook: the image ends here, as at _exit, and
 * what the handlers call comes after END (a block each, as after exit's).
 * Unhooked, the report took the process for killed.
 */
GT_EXPORT void GT_HOOK_NAME(quick_exit)(int status)
{
	end_before_underscore_exit(status, 1);
	gt_quick_exit_begins(status);
	gt_real_quick_exit(status);
	__builtin_unreachable();
}

/*
 * daemon() forks and ends the parent with _exit(0) inside libc, where the
 * _exit hook never sees it: the fork's parent handler ends the parent's
 * image (lifecycle.c). Unhooked, the parent's last block and END were
 * lost, and the report said the trace was cut.
 */
GT_EXPORT int GT_HOOK_NAME(daemon)(int nochdir, int noclose)
{
	need_real();
	gt_daemon_begins();
	int r = gt_real_daemon(nochdir, noclose);
	gt_daemon_ends();
	return r;
}

GT_EXPORT void *GT_HOOK_NAME(dlopen)(const char *file, int mode)
{
	need_real();
	void *handle = gt_real_dlopen(file, mode);
	if (handle && gt_enter()) {
		int saved_errno = errno;
		gt_image_modules();
		errno = saved_errno;
		gt_leave();
	}
	return handle;
}

GT_EXPORT int GT_HOOK_NAME(dlclose)(void *handle)
{
	need_real();
	int r = gt_real_dlclose(handle);
	if (!r)
		gt_stack_walk_after_dlclose();
	return r;
}
