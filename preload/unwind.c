/*
 * The caller's stack: raw return addresses only, symbols are resolved
 * offline by the analyzer.
 *
 * Our own walk (stack_walk.c) takes most stacks: it reuses the frames a
 * thread's stack kept since its previous allocation, where libunwind
 * would step through all of them again. A stack it cannot follow goes to
 * libunwind's unw_backtrace, which gives the same addresses, under the
 * fork guard (fork_guard.c). libunwind is asked to cache per thread, so
 * that its unwinds never wait for each other; a libunwind built without
 * per-thread caches (Debian 12's 1.6) keeps its one cache behind a lock.
 */
#define UNW_LOCAL_ONLY
#include "unwind.h"
#include "fork_guard.h"
#include "no_cancel.h"
#include "settings.h"
#include "stack_walk.h"
#include "tracer.h"

#include <libunwind.h>
#include <link.h>
#include <pthread.h>

struct code_range {
	uintptr_t probe; /* an address inside the wanted segment */
	uintptr_t start, end;
};

/* libgittrace's own code, to cut its frames off; libunwind's, see below. */
static struct code_range self, unwinder;

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
	gt_stack_walk_init();
	gt_fork_guard_init();
}

int gt_called_by_unwinder(const void *return_address)
{
	uintptr_t a = (uintptr_t)return_address;
	return a >= unwinder.start && a < unwinder.end;
}

/*
 * libunwind starts at its first walk, not with the tracer: its init opens
 * its memory-check pipe (hooks_fd.c), two descriptors that count against
 * the program's `ulimit -n`, and a process whose every stack our own walk
 * follows (most of git's) never needs them. Counting mode walks none.
 */
static pthread_once_t libunwind_started = PTHREAD_ONCE_INIT;

static void start_libunwind(void)
{
	unw_set_caching_policy(unw_local_addr_space, UNW_CACHE_PER_THREAD);
}

/*
 * libunwind's walk, apart: its buffer and libunwind's own frames (a
 * cursor, a context) take kilobytes of a stack that may be small, which
 * the common case, our own walk, does not reserve.
 */
static __attribute__((noinline)) int libunwind_walk(uintptr_t *ips, int max)
{
	void *raw[GT_STACK_DEPTH_MAX + 8];
	int skip_room = 8; /* our own frames: hook, gt_stream_call, gt_unwind */
	gt_fork_guard_enter();
	struct gt_own guard = gt_own_begin(); /* libunwind's caches come from malloc */
	/* Its checks of memory read and write a pipe: cancellation points. */
	int cancel = gt_cancel_off();
	pthread_once(&libunwind_started, start_libunwind);
	int n = unw_backtrace(raw, max + skip_room);
	gt_cancel_restore(cancel);
	gt_own_end(&guard);
	gt_fork_guard_leave();
	int first = 0;
	while (first < n && (uintptr_t)raw[first] >= self.start && (uintptr_t)raw[first] < self.end)
		first++;
	int depth = 0;
	for (int i = first; i < n && depth < max; i++)
		ips[depth++] = (uintptr_t)raw[i];
	return depth;
}

int gt_unwind(uintptr_t *ips, int max)
{
	if (gt_fork_guard_lost())
		return 0;
	int depth = gt_stack_walk(ips, max, self.start, self.end);
	return depth >= 0 ? depth : libunwind_walk(ips, max);
}
