/* Writes of the tracer's own that never raise a signal in the program (quiet_write.c). */
#ifndef GT_QUIET_WRITE_H
#define GT_QUIET_WRITE_H

#include <stddef.h>

/*
 * Writes the len bytes at buf to fd, one write(2) where the kernel takes
 * them whole, retrying after EINTR and short writes. The signals a failed
 * write raises, SIGPIPE (a pipe whose reader is gone) and SIGXFSZ (past
 * the file-size limit), are blocked meanwhile and taken back unless one was
 * pending already: the program never dies of the tracer's write. Returns 0,
 * or -1 with errno set (ENOSPC for a write that took nothing). Allocation-
 * free; safe in a signal handler on Linux (sigwait is not on POSIX's list
 * of async-signal-safe functions, but it is a system call there). One
 * signal the write raised stays with the program if the program had the
 * same signal pending from elsewhere beforehand: pending signals carry no
 * count to tell them apart.
 */
int gt_write_quietly(int fd, const void *buf, size_t len);

#endif /* GT_QUIET_WRITE_H */
