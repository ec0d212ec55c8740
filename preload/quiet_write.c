/*
 * The tracer's writes, without the program's signals. See quiet_write.h.
 */
#include "quiet_write.h"
#include "no_cancel.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

/* Takes back sig if the write raised it: pending now, and not before. */
static void take_back(int sig, const sigset_t *before)
{
	sigset_t pending, only;
	if (sigismember(before, sig) || sigpending(&pending) || !sigismember(&pending, sig))
		return;
	sigemptyset(&only);
	sigaddset(&only, sig);
	int got;
	sigwait(&only, &got); /* pending: returns at once */
}

int gt_write_quietly(int fd, const void *buf, size_t len)
{
	int cancel = gt_cancel_off(); /* write and sigwait are cancellation points */
	sigset_t ours, before, old;
	sigemptyset(&ours);
	sigaddset(&ours, SIGPIPE);
	sigaddset(&ours, SIGXFSZ);
	sigpending(&before);
	pthread_sigmask(SIG_BLOCK, &ours, &old);
	const char *p = buf;
	int err = 0;
	while (len) {
		ssize_t w = write(fd, p, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			err = w < 0 ? errno : ENOSPC;
			break;
		}
		p += w;
		len -= (size_t)w;
	}
	if (err == EPIPE)
		take_back(SIGPIPE, &before);
	if (err == EFBIG)
		take_back(SIGXFSZ, &before);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	gt_cancel_restore(cancel);
	if (!err)
		return 0;
	errno = err;
	return -1;
}
