/*
 * Keeps libunwind off the program's file descriptors.
 *
 * libunwind 1.6 (Debian 12) checks that memory is readable, on every step
 * it takes for a new return address, by writing one byte of it into a pipe
 * that it opens at init and keeps in a global. Left alone, that pipe takes
 * the lowest free descriptors, usually 3 and 4, where shells and git put
 * their own files (`exec 3>&2 4>&2`). Once the program has replaced them,
 * libunwind's next read of the pipe fails, and libunwind closes 3 and 4,
 * now the program's, and makes its pipe there again: the program's writes
 * fail or vanish into the pipe (libunwind issues 274 and 291, gperftools
 * 1283; libunwind 1.8 checks memory without a pipe).
 *
 * So libunwind's calls are steered, recognised by their return address:
 *   pipe2  the pipe is made, then moved to 700 or above, where programs do
 *          not put files, and remembered; with no room there, not made;
 *   read   before each check libunwind reads the pipe: if either end no
 *          longer is that pipe (the program closed it or dup2'd onto it),
 *          nothing is read and libunwind sees EBADF, so it makes a new pipe;
 *   close  libunwind then closes its old ends: only ends that still are
 *          its pipe are closed, never what the program put there.
 * Calls on other descriptors, libunwind's or the program's, pass through.
 * A check writes one byte into the pipe (syscall(SYS_write), right after
 * the read above said both ends are ours) and the next check reads it back.
 *
 * Linux only: macOS's unwinder is the system's and opens no pipe (the
 * hiding below is Linux's only, too).
 *
 * And makes the tracer's own descriptors (the trace file's, libunwind's
 * pipe) look closed to the program, as in the untraced program they are:
 * fcntl, ioctl, dup, dup2, dup3, close and read on them fail with EBADF.
 * bash asks F_GETFD before it redirects onto a number, and takes a
 * close-on-exec descriptor at 10 or above for a copy it saved for itself
 * (redir.c, add_undo_redirect): told the truth, it put back what was at 700
 * after `exec 700>file`, though exec redirections are never undone, so the
 * script's file was gone and its writes to 700 went into the trace. Told
 * "not open", it redirects as in the untraced run; the tracer finds its
 * file or pipe gone before its next write, as after any dup2 onto it
 * (writer.c, the read hook below). And `echo x >&700`, which bash makes
 * with dup2, fails as untraced instead of writing into the trace. Answering
 * "open, without FD_CLOEXEC" instead would make bash put the trace file
 * back after `cmd 700>file` without the flag, and every program the script
 * starts after it would inherit it. Whether a number holds the tracer's
 * file or pipe takes an fstat: not in a seccomp sandbox, which may kill for
 * it (the tracer stops before it, and the writer closes the trace file when
 * tracing stops). Not covered: fstat, /proc/self/fd, and a write to a
 * number the program never opened (README, descriptors).
 */
#include "hooks_fd.h"
#include "interpose.h"
#include "session.h"
#include "unwind.h"
#include "writer.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* libunwind's pipe as handed out by the pipe2 hook; -1 before. */
static int unwinder_pipe[2] = {-1, -1};
static dev_t pipe_dev;
static ino_t pipe_ino;

/* Whether fd is a number libunwind holds its pipe on (it may not be the pipe any more). */
static int unwinder_number(int fd)
{
	return fd >= 0 && (fd == unwinder_pipe[0] || fd == unwinder_pipe[1]);
}

/* Whether fd still is libunwind's pipe. */
static int is_unwinder_pipe(int fd)
{
	struct stat st;
	return unwinder_number(fd) && fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode) &&
	       st.st_dev == pipe_dev && st.st_ino == pipe_ino;
}

/* Moves a pipe end to GT_FD_FLOOR or above, close-on-exec; -1 (closed) if none is free there. */
static int pipe_end_high(int fd)
{
	int high = fcntl(fd, F_DUPFD_CLOEXEC, GT_FD_FLOOR);
	close(fd);
	return high;
}

/*
 * libunwind's pipe goes to GT_FD_FLOOR or above, or is not made at all:
 * libunwind starts at its first walk (unwind.c), in the middle of the run,
 * and a pipe on lower numbers would take ones the program counts on (a
 * program at its `ulimit -n` that has just closed two). Without it
 * libunwind's memory checks fail, and a stack it must guess through ends
 * at the first guess.
 */
GT_EXPORT int GT_HOOK_NAME(pipe2)(int fds[2], int flags)
{
	if (!gt_real_pipe2)
		gt_resolve_real();
	int before[2] = {fds[0], fds[1]};
	int r = gt_real_pipe2 ? gt_real_pipe2(fds, flags) : (int)syscall(SYS_pipe2, fds, flags);
	if (r || !gt_called_by_unwinder(__builtin_return_address(0)))
		return r;
	int rd = pipe_end_high(fds[0]), wr = pipe_end_high(fds[1]);
	if (rd < 0 || wr < 0) {
		if (rd >= 0)
			close(rd);
		if (wr >= 0)
			close(wr);
		fds[0] = before[0]; /* as a failed pipe2 leaves them */
		fds[1] = before[1];
		errno = EMFILE;
		return -1;
	}
	struct stat st;
	if (fstat(rd, &st) == 0) {
		pipe_dev = st.st_dev;
		pipe_ino = st.st_ino;
	}
	fds[0] = unwinder_pipe[0] = rd;
	fds[1] = unwinder_pipe[1] = wr;
	return 0;
}

static int in_sandbox; /* gt_fds_in_sandbox */

void gt_fds_in_sandbox(void)
{
	__atomic_store_n(&in_sandbox, 1, __ATOMIC_RELEASE);
}

/*
 * Whether fd is the trace file's or libunwind's pipe, to be hidden from
 * the caller: never from libunwind, nor in a sandbox.
 */
static int hidden(int fd, const void *caller)
{
	if (__atomic_load_n(&in_sandbox, __ATOMIC_ACQUIRE) || gt_called_by_unwinder(caller))
		return 0;
	int saved_errno = errno;
	int ours = gt_writer_holds(fd) || is_unwinder_pipe(fd);
	errno = saved_errno;
	return ours;
}

static int not_open(void)
{
	errno = EBADF;
	return -1;
}

/*
 * fcntl's third argument is an int or a pointer by the command; glibc's
 * own fcntl reads it as a pointer whatever the command, and so do these.
 */
#define GT_FCNTL_HOOK(name)                                                                        \
	GT_EXPORT int GT_HOOK_NAME(name)(int fd, int cmd, ...)                                     \
	{                                                                                          \
		va_list ap;                                                                        \
		va_start(ap, cmd);                                                                 \
		void *arg = va_arg(ap, void *);                                                    \
		va_end(ap);                                                                        \
		if (hidden(fd, __builtin_return_address(0)))                                       \
			return not_open();                                                         \
		if (!gt_real_##name)                                                               \
			gt_resolve_real();                                                         \
		return gt_real_##name ? gt_real_##name(fd, cmd, arg)                               \
				      : (int)syscall(SYS_fcntl, fd, cmd, arg);                     \
	}

/* fcntl64 is what programs built with 64-bit file offsets call (glibc 2.28 and later). */
GT_FCNTL_HOOK(fcntl)
GT_FCNTL_HOOK(fcntl64)

/* FIOCLEX and FIONCLEX set close-on-exec too (Python's os.set_inheritable). */
GT_EXPORT int GT_HOOK_NAME(ioctl)(int fd, unsigned long request, ...)
{
	va_list ap;
	va_start(ap, request);
	void *arg = va_arg(ap, void *);
	va_end(ap);
	if (hidden(fd, __builtin_return_address(0)))
		return not_open();
	if (!gt_real_ioctl)
		gt_resolve_real();
	return gt_real_ioctl ? gt_real_ioctl(fd, request, arg)
			     : (int)syscall(SYS_ioctl, fd, request, arg);
}

GT_EXPORT int GT_HOOK_NAME(dup)(int fd)
{
	if (hidden(fd, __builtin_return_address(0)))
		return not_open();
	if (!gt_real_dup)
		gt_resolve_real();
	return gt_real_dup ? gt_real_dup(fd) : (int)syscall(SYS_dup, fd);
}

GT_EXPORT int GT_HOOK_NAME(dup3)(int fd, int fd2, int flags)
{
	/* The kernel refuses bad flags and fd2 == fd first (EINVAL). */
	if ((flags & ~O_CLOEXEC) == 0 && fd != fd2 && hidden(fd, __builtin_return_address(0)))
		return not_open();
	if (!gt_real_dup3)
		gt_resolve_real();
	return gt_real_dup3 ? gt_real_dup3(fd, fd2, flags) : (int)syscall(SYS_dup3, fd, fd2, flags);
}

GT_EXPORT int GT_HOOK_NAME(dup2)(int fd, int fd2)
{
	if (hidden(fd, __builtin_return_address(0)))
		return not_open();
	if (!gt_real_dup2)
		gt_resolve_real();
	if (gt_real_dup2)
		return gt_real_dup2(fd, fd2);
#ifdef SYS_dup2
	return (int)syscall(SYS_dup2, fd, fd2);
#else
	/* dup3 refuses fd2 == fd, which dup2 answers with fd if it is open. */
	return fd == fd2 ? (syscall(SYS_fcntl, fd, F_GETFD) < 0 ? -1 : fd)
			 : (int)syscall(SYS_dup3, fd, fd2, 0);
#endif
}

GT_EXPORT ssize_t GT_HOOK_NAME(read)(int fd, void *buf, size_t count)
{
	const void *caller = __builtin_return_address(0);
	if (unwinder_number(fd) && gt_called_by_unwinder(caller) &&
	    !(is_unwinder_pipe(unwinder_pipe[0]) && is_unwinder_pipe(unwinder_pipe[1])))
		return not_open(); /* no longer libunwind's pipe */
	if (hidden(fd, caller))
		return not_open();
	if (!gt_real_read)
		gt_resolve_real();
	return gt_real_read ? gt_real_read(fd, buf, count) : syscall(SYS_read, fd, buf, count);
}

GT_EXPORT int GT_HOOK_NAME(close)(int fd)
{
	const void *caller = __builtin_return_address(0);
	if (unwinder_number(fd) && gt_called_by_unwinder(caller) && !is_unwinder_pipe(fd))
		return 0; /* no longer libunwind's: the program's now, or closed */
	if (hidden(fd, caller))
		return not_open();
	if (!gt_real_close)
		gt_resolve_real();
	return gt_real_close ? gt_real_close(fd) : (int)syscall(SYS_close, fd);
}
