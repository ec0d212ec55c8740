/*
 * libunwind, and libdw when the stack walk learns a new frame rule, take
 * internal locks. A fork while another thread is inside either would
 * leave such a lock held forever in the child, and the child's next call
 * would hang. So they run under a read lock and fork (through
 * pthread_atfork) waits for the write lock: no thread is inside them when
 * the child is made. If the wait cannot succeed (fork from a signal
 * handler that interrupted a guarded call in the same thread), the child
 * records without stacks instead.
 */
#include "fork_guard.h"
#include "tls.h"

#include <errno.h>
#include <pthread.h>
#include <time.h>

static pthread_rwlock_t fork_guard;
/*
 * The prepare handler of this thread's fork got the write lock, until the
 * parent's or the child's handler. Per thread: two threads may fork at
 * once, and the second's prepare handler must not clear the flag the
 * first one's parent handler unlocks by.
 */
static GT_TLS int fork_guard_held;
static int guard_lost;	   /* in a child forked without it */
static GT_TLS int guarded; /* this thread holds the read lock */
static int registered;	   /* the handlers are pthread_atfork's */

/* How long fork waits for guarded calls (each takes microseconds). */
#define GT_FORK_WAIT_NS 1000000000L

static void init_lock(void)
{
	pthread_rwlockattr_t attr;
	pthread_rwlockattr_init(&attr);
	/* A stream of guarded calls in other threads must not starve fork. */
	pthread_rwlockattr_setkind_np(&attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	pthread_rwlock_init(&fork_guard, &attr);
	pthread_rwlockattr_destroy(&attr);
}

static void before_fork(void)
{
	struct timespec deadline;
	fork_guard_held = 0;
	if (guarded)
		return; /* a signal handler forking inside our own guarded call */
	/*
	 * No thread takes the guard once it is lost (no stacks), and the
	 * lock may be left broken: a call interrupted by a signal handler
	 * that forked unlocked the new one (every later fork waited its
	 * full second).
	 */
	if (guard_lost)
		return;
	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += GT_FORK_WAIT_NS / 1000000000L;
	int saved_errno = errno;
	fork_guard_held = pthread_rwlock_timedwrlock(&fork_guard, &deadline) == 0;
	errno = saved_errno;
}

static void after_fork_in_parent(void)
{
	if (fork_guard_held)
		pthread_rwlock_unlock(&fork_guard);
	fork_guard_held = 0;
}

static void after_fork_in_child(void)
{
	if (!fork_guard_held)
		guard_lost = 1;
	fork_guard_held = 0;
	init_lock();
}

void gt_fork_guard_init(void)
{
	init_lock();
	registered = 1;
	pthread_atfork(before_fork, after_fork_in_parent, after_fork_in_child);
}

void gt_fork_guard_before_unseen_fork(int parent_waits)
{
	/* Not after_fork_in_child's to read: the guard is not taken. */
	fork_guard_held = 0;
	if (registered && !parent_waits)
		before_fork();
}

void gt_fork_guard_after_unseen_fork(int in_child)
{
	if (!registered)
		return;
	if (in_child)
		after_fork_in_child();
	else
		after_fork_in_parent();
}

void gt_fork_guard_after_missed_fork(int other_threads)
{
	/* Between a fork's prepare and child handlers: theirs to settle. */
	if (!registered || fork_guard_held)
		return;
	if (other_threads || guarded)
		guard_lost = 1;
	init_lock();
}

/*
 * A pthread_atfork prepare handler registered before the tracer's runs
 * after it: a call it makes comes while this thread holds the write lock,
 * which keeps every other thread out already. Its read lock failed, and
 * its unlock released the write lock, which the parent's handler released
 * again: every later fork waited its full second for the guard.
 */
void gt_fork_guard_enter(void)
{
	guarded = 1;
	if (!fork_guard_held)
		pthread_rwlock_rdlock(&fork_guard);
}

void gt_fork_guard_leave(void)
{
	if (!fork_guard_held)
		pthread_rwlock_unlock(&fork_guard);
	guarded = 0;
}

int gt_fork_guard_entered(void)
{
	return guarded;
}

int gt_fork_guard_lost(void)
{
	return guard_lost;
}
