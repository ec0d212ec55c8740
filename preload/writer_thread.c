/*
 * The program's threads fill the stream's buffers; compressing a full one
 * and writing it, a third of the tracer's instructions (docs/capture-cost.md,
 * section 0.7), happen here, on a thread of the tracer's own, on another
 * core while the program runs on. The stream has two buffers: while this
 * thread writes one, the program fills the other, and a hand-off waits
 * only if the program filled a whole buffer before the last was written.
 *
 * The thread starts at the first block handed over without waiting (a
 * full buffer, or the flush interval): a process that forks and execs, or
 * ends before its first buffer fills, never has one. It blocks every
 * signal, so the program's signals go where they went without it; its own
 * calls pass through untraced; the only lock it takes is the hand-off's,
 * never while writing. A forked child has no such thread (fork copies only
 * the forking one) and starts its own when it needs one. If none can be
 * started, each block is written by the thread that filled it.
 *
 * What a thread changes: the program runs on while a block is written. A
 * program that dup2s onto the trace file's descriptor (moved to 700 or
 * above, session.c) in the microseconds between the check that it still
 * is our file and the write would get a block written into its own file;
 * a program with threads of its own could do that before too.
 */
#include "writer_thread.h"
#include "clock.h"
#include "tracer.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

/* Compressing and writing take a few KiB of stack; the default is megabytes. */
#define GT_WRITER_STACK_SIZE (256u << 10)

static struct {
	pthread_mutex_t lock;
	pthread_cond_t changed;
	/* The stream lock's: only threads that hold it read or write these. */
	int running, start_failed;
	/* Under lock: a block handed over and not written yet, and which. */
	int pending;
	struct gt_block_header h;
	struct gt_raw_piece pieces[1 + GT_COL_COUNT];
	unsigned n;
} wt = {.lock = PTHREAD_MUTEX_INITIALIZER, .changed = PTHREAD_COND_INITIALIZER};

static uint64_t busy_ns; /* atomic */

static void write_timed(const struct gt_block_header *h, const struct gt_raw_piece *pieces,
			unsigned n)
{
	uint64_t t0 = gt_now_ns();
	gt_writer_write_block(h, pieces, n);
	__atomic_add_fetch(&busy_ns, gt_now_ns() - t0, __ATOMIC_RELAXED);
}

static void *write_handed_over(void *unused)
{
	(void)unused;
	gt_in_tracer = 1; /* whatever it calls passes through, unrecorded */
	pthread_mutex_lock(&wt.lock);
	for (;;) {
		while (!wt.pending)
			pthread_cond_wait(&wt.changed, &wt.lock);
		/* The hand-off leaves the block alone until pending is cleared. */
		pthread_mutex_unlock(&wt.lock);
		write_timed(&wt.h, wt.pieces, wt.n);
		pthread_mutex_lock(&wt.lock);
		wt.pending = 0;
		pthread_cond_broadcast(&wt.changed);
	}
	return NULL;
}

/* Starts the thread with every signal blocked (it inherits the mask); 1 if it runs. */
static int start(void)
{
	pthread_attr_t attr;
	pthread_t thread;
	sigset_t all, old;
	int saved_errno = errno;
	if (pthread_attr_init(&attr))
		return 0;
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&attr, GT_WRITER_STACK_SIZE);
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	int started = pthread_create(&thread, &attr, write_handed_over, NULL) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	errno = saved_errno;
	return started;
}

void gt_writer_submit(const struct gt_block_header *h, const struct gt_raw_piece *pieces,
		      unsigned n, int wait)
{
	/*
	 * Not in the child of a vfork, which shares our memory until it execs:
	 * a thread there would die with the exec, its block half written.
	 */
	if (!wt.running && !wt.start_failed && !wait && (uint32_t)getpid() == h->pid) {
		wt.running = start();
		wt.start_failed = !wt.running;
	}
	if (!wt.running) {
		write_timed(h, pieces, n);
		return;
	}
	/* A thread cancelled while it waits here would leave the stream locked. */
	int cancel_state;
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cancel_state);
	pthread_mutex_lock(&wt.lock);
	while (wt.pending)
		pthread_cond_wait(&wt.changed, &wt.lock);
	wt.h = *h;
	memcpy(wt.pieces, pieces, n * sizeof(*pieces));
	wt.n = n;
	wt.pending = 1;
	pthread_cond_broadcast(&wt.changed);
	while (wait && wt.pending)
		pthread_cond_wait(&wt.changed, &wt.lock);
	pthread_mutex_unlock(&wt.lock);
	pthread_setcancelstate(cancel_state, NULL);
}

uint64_t gt_writer_busy_ns(void)
{
	return __atomic_load_n(&busy_ns, __ATOMIC_RELAXED);
}

void gt_writer_thread_reset_after_fork(void)
{
	/* The parent's thread may have held the lock at the fork. */
	pthread_mutex_init(&wt.lock, NULL);
	pthread_cond_init(&wt.changed, NULL);
	wt.running = wt.start_failed = wt.pending = 0;
	busy_ns = 0;
}
