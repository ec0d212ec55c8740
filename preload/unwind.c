/*
 * The caller's stack: raw return addresses only, symbols are resolved
 * offline by the analyzer.
 *
 * Our own walk (stack_walk.c) takes most stacks: it reuses the frames a
 * thread's stack kept since its previous allocation, where libunwind
 * would step through all of them again. A stack it cannot follow goes to
 * libunwind's unw_backtrace, which gives the same addresses.
 *
 * libunwind, and libdw when the walk learns a new frame rule, take
 * internal locks. A fork while another thread is inside either would
 * leave such a lock held forever in the child, and the child's next
 * unwind would hang. So they run under a read lock and fork (through
 * pthread_atfork) waits for the write lock: no thread is inside them when
 * the child is made. If the wait cannot succeed (fork from a signal
 * handler that interrupted an unwind in the same thread), the child
 * records without stacks instead. The walk itself takes no lock.
 * libunwind also caches per thread, so unwinds never wait for each other.
 */
#define UNW_LOCAL_ONLY
#include "unwind.h"
#ifdef GT_OWN_WALK
#include "frame_rules.h"
#endif
#include "settings.h"
#include "stack_walk.h"
#include "tls.h"

#include <dlfcn.h>
#include <errno.h>
#include <libunwind.h>
#include <link.h>
#include <pthread.h>
#include <time.h>

struct code_range {
	uintptr_t probe; /* an address inside the wanted segment */
	uintptr_t start, end;
};

/* libgittrace's own code, to cut its frames off; libunwind's, see below. */
static struct code_range self, unwinder;

static pthread_rwlock_t fork_guard;
/*
 * The prepare handler of this thread's fork got the write lock. Per
 * thread: two threads may fork at once, and the second's prepare handler
 * must not clear the flag the first one's parent handler unlocks by.
 */
static GT_TLS int fork_guard_held;
static int unwinding_unsafe; /* in a child forked without it: no stacks */
static GT_TLS int in_unwind; /* this thread holds the read lock */

/* How long fork waits for running unwinds (each takes microseconds). */
#define GT_FORK_WAIT_NS 1000000000L

static void init_fork_guard(void)
{
	pthread_rwlockattr_t attr;
	pthread_rwlockattr_init(&attr);
	/* A stream of unwinds in other threads must not starve fork. */
	pthread_rwlockattr_setkind_np(&attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	pthread_rwlock_init(&fork_guard, &attr);
	pthread_rwlockattr_destroy(&attr);
}

static void before_fork(void)
{
	struct timespec deadline;
	fork_guard_held = 0;
	if (in_unwind)
		return; /* a signal handler forking inside our own unwind */
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
}

static void after_fork_in_child(void)
{
	if (!fork_guard_held)
		unwinding_unsafe = 1;
	init_fork_guard();
}

static int find_segment(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	struct code_range *r = data;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t start = info->dlpi_addr + ph->p_vaddr;
		if (ph->p_type == PT_LOAD && r->probe >= start && r->probe < start + ph->p_memsz) {
			r->start = start;
			r->end = start + ph->p_memsz;
			return 1;
		}
	}
	return 0;
}

void gt_unwind_init(void)
{
	self.probe = (uintptr_t)gt_unwind_init;
	unwinder.probe = (uintptr_t)unw_backtrace;
	dl_iterate_phdr(find_segment, &self);
	dl_iterate_phdr(find_segment, &unwinder);
	unw_set_caching_policy(unw_local_addr_space, UNW_CACHE_PER_THREAD);
	gt_stack_walk_init();
	init_fork_guard();
	pthread_atfork(before_fork, after_fork_in_parent, after_fork_in_child);
}

int gt_called_by_unwinder(const void *return_address)
{
	uintptr_t a = (uintptr_t)return_address;
	return a >= unwinder.start && a < unwinder.end;
}

static void guard_enter(void)
{
	in_unwind = 1;
	pthread_rwlock_rdlock(&fork_guard);
}

static void guard_leave(void)
{
	pthread_rwlock_unlock(&fork_guard);
	in_unwind = 0;
}

/*
 * The walk, learning the rules it lacks on the way: each try learns one,
 * so a stack never seen takes at most one try per frame. -1: libunwind's.
 */
static int walk(uintptr_t *ips, int max)
{
#ifndef GT_OWN_WALK
	(void)ips;
	(void)max;
	return -1;
#else
	for (int tries = 0; tries <= max; tries++) {
		uintptr_t missing;
		int n = gt_stack_walk(ips, max, self.start, self.end, &missing);
		if (n != GT_WALK_MISSING)
			return n;
		guard_enter();
		int failed = gt_frame_rule_learn(missing);
		guard_leave();
		if (failed)
			break;
	}
	return -1;
#endif
}

int gt_unwind(uintptr_t *ips, int max)
{
	if (unwinding_unsafe)
		return 0;
	int depth = walk(ips, max);
	if (depth >= 0)
		return depth;
	void *raw[GT_MAX_STACK_DEPTH + 8];
	int skip_room = 8; /* our own frames: hook, gt_stream_call, gt_unwind */
	guard_enter();
	int n = unw_backtrace(raw, max + skip_room);
	guard_leave();
	int first = 0;
	while (first < n && (uintptr_t)raw[first] >= self.start && (uintptr_t)raw[first] < self.end)
		first++;
	depth = 0;
	for (int i = first; i < n && depth < max; i++)
		ips[depth++] = (uintptr_t)raw[i];
	return depth;
}
