/*
 * libunwind's memory-check pipe, kept off the program's descriptors
 * (hooks_fd.c). Linux only.
 */
#ifndef GT_HOOKS_FD_H
#define GT_HOOKS_FD_H

/*
 * Makes both ends of libunwind's pipe close-on-exec (on 1) or not (on 0),
 * where they still are that pipe (session.h, gt_fd_move_high, says why
 * they are not while the program runs). errno kept.
 */
void gt_unwinder_pipe_close_on_exec(int on);

#endif /* GT_HOOKS_FD_H */
