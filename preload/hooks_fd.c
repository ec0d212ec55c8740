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
 *          not put files, and remembered;
 *   read   before each check libunwind reads the pipe: if either end no
 *          longer is that pipe (the program closed it or dup2'd onto it),
 *          nothing is read and libunwind sees EBADF, so it makes a new pipe;
 *   close  libunwind then closes its old ends: only ends that still are
 *          its pipe are closed, never what the program put there.
 * Calls on other descriptors, libunwind's or the program's, pass through.
 * A check writes one byte into the pipe (syscall(SYS_write), right after
 * the read above said both ends are ours) and the next check reads it back.
 *
 * Linux only: macOS's unwinder is the system's and opens no pipe.
 */
#include "interpose.h"
#include "session.h"
#include "unwind.h"

#include <errno.h>
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

GT_EXPORT int GT_HOOK_NAME(pipe2)(int fds[2], int flags)
{
	if (!gt_real_pipe2)
		gt_resolve_real();
	int r = gt_real_pipe2 ? gt_real_pipe2(fds, flags) : (int)syscall(SYS_pipe2, fds, flags);
	if (r || !gt_called_by_unwinder(__builtin_return_address(0)))
		return r;
	struct stat st;
	fds[0] = gt_fd_move_high(fds[0]);
	fds[1] = gt_fd_move_high(fds[1]);
	if (fstat(fds[0], &st) == 0) {
		pipe_dev = st.st_dev;
		pipe_ino = st.st_ino;
	}
	unwinder_pipe[0] = fds[0];
	unwinder_pipe[1] = fds[1];
	return 0;
}

GT_EXPORT ssize_t GT_HOOK_NAME(read)(int fd, void *buf, size_t count)
{
	if (unwinder_number(fd) && gt_called_by_unwinder(__builtin_return_address(0)) &&
	    !(is_unwinder_pipe(unwinder_pipe[0]) && is_unwinder_pipe(unwinder_pipe[1]))) {
		errno = EBADF;
		return -1;
	}
	if (!gt_real_read)
		gt_resolve_real();
	return gt_real_read ? gt_real_read(fd, buf, count) : syscall(SYS_read, fd, buf, count);
}

GT_EXPORT int GT_HOOK_NAME(close)(int fd)
{
	if (unwinder_number(fd) && gt_called_by_unwinder(__builtin_return_address(0)) &&
	    !is_unwinder_pipe(fd))
		return 0; /* no longer libunwind's: the program's now, or closed */
	if (!gt_real_close)
		gt_resolve_real();
	return gt_real_close ? gt_real_close(fd) : (int)syscall(SYS_close, fd);
}
