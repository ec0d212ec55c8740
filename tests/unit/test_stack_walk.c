/*
 * The preload's own stack walk (preload/stack_walk.c) against libunwind's
 * unw_backtrace, taken at the same point of the same stack: from the
 * frame that called the probe outwards, both must list the same return
 * addresses. The stacks vary from one probe to the next (call paths
 * through frames of different sizes, alloca, indirect calls, recursion
 * deeper than the limit, a second thread, rules forgotten as after a
 * dlclose, a makecontext coroutine on a heap stack), so the walk mostly reuses
 * frames of its previous walk; a reuse that should not have happened
 * shows as a difference. A probe inside a signal handler (on the thread's
 * stack, or an alternate one) or on the coroutine must either match, or
 * be left to libunwind, or give libunwind's first frames.
 */
#define UNW_LOCAL_ONLY
#include "../check.h"
#include "fork_guard.h"
#include "frame_rules.h"
#include "stack_walk.h"

#include <alloca.h>
#include <libunwind.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <ucontext.h>
#include <stdatomic.h>
#include <string.h>

#define LIMIT 48 /* frames a probe asks for: deeper stacks are cut */

static _Atomic int probes, walked, unable; /* two threads probe */
/*
 * Set while a coroutine runs: its stack ends in glibc's __start_context,
 * which the walk may leave to libunwind, as it does signal frames.
 */
static int on_coroutine_stack;
static int coroutine_probes;

/*
 * The walk learns the rules it lacks; while the other thread is learning
 * one it gives up (unwind.c then asks libunwind) and the test tries again,
 * until that thread is done with its one rule, however slow the machine:
 * the bound only ends a stack the walk cannot follow, which stays
 * GT_WALK_UNABLE however often. Where that is allowed (may_fail), one try.
 */
static int walk(uintptr_t *ips, int limit, int may_fail)
{
	int n = GT_WALK_UNABLE;
	for (int tries = 0; tries < (may_fail ? 1 : 1000000) && n == GT_WALK_UNABLE; tries++) {
		n = gt_stack_walk(ips, limit, 0, 0);
		if (n == GT_WALK_UNABLE)
			sched_yield();
	}
	return n;
}

/* Index of want in list, or -1. */
static int find(const uintptr_t *list, int n, uintptr_t want)
{
	for (int i = 0; i < n; i++)
		if (list[i] == want)
			return i;
	return -1;
}

/* Compares both unwinders from the probe's caller outwards. */
__attribute__((noinline)) static void probe(int in_signal_handler)
{
	uintptr_t ours[LIMIT], theirs[LIMIT + 8];
	void *raw[LIMIT + 8];
	uintptr_t caller = (uintptr_t)__builtin_return_address(0);
	int may_fail = in_signal_handler || on_coroutine_stack;
	int n = walk(ours, LIMIT, may_fail);
	int m = unw_backtrace(raw, LIMIT + 8);
	for (int i = 0; i < m; i++)
		theirs[i] = (uintptr_t)raw[i];
	probes++;
	coroutine_probes += on_coroutine_stack;
	if (n == GT_WALK_UNABLE) {
		unable++;
		/* Every other stack here has CFI throughout, to its entry frame. */
		CHECK(may_fail);
		return;
	}
	CHECK(n > 0);
	int a = find(ours, n, caller), b = find(theirs, m, caller);
	CHECK(a >= 0 && a <= 2); /* only the walk's own frames before it */
	CHECK(b >= 0);
	if (a < 0 || b < 0)
		return;
	walked++;
	/* Both from the caller on; ours was cut at LIMIT frames in all. */
	int same = 0;
	while (a + same < n && b + same < m && ours[a + same] == theirs[b + same])
		same++;
	CHECK(a + same == n);
	/* Ours ended where libunwind's did; a walk off the thread's own stack
	 * (a coroutine's, an alternate signal stack) may end sooner, where it
	 * cannot go on: its frames are the first of libunwind's. */
	if (n < LIMIT && !may_fail)
		CHECK(b + same == m);

	/* A shorter limit gives the first frames of the same walk. */
	uintptr_t cut[LIMIT];
	int limit = a + 1 + probes % (LIMIT - a - 1);
	int k = walk(cut, limit, 0);
	CHECK(k == (n < limit ? n : limit));
	CHECK(k > a && cut[a] == caller); /* the first frames are the walk's call */
	CHECK(k < 0 || !memcmp(cut + a, ours + a, (size_t)(k - a) * sizeof(*cut)));
}

typedef void step_fn(unsigned path, int depth);
static step_fn small_frame, big_frame, varying_frame;
static step_fn *const steps[] = {small_frame, big_frame, varying_frame};

/* Goes depth calls deeper, each through the function path picks, then probes. */
static void descend(unsigned path, int depth)
{
	if (depth == 0) {
		probe(0);
		return;
	}
	steps[path % 3](path / 3 + depth, depth - 1);
}

__attribute__((noinline)) static void small_frame(unsigned path, int depth)
{
	volatile int keep = depth;
	descend(path, depth);
	(void)keep;
}

__attribute__((noinline)) static void big_frame(unsigned path, int depth)
{
	volatile char pad[600];
	pad[0] = (char)depth;
	descend(path * 7, depth);
	(void)pad[0];
}

/* alloca: a frame found from rbp, of a size that changes from call to call. */
__attribute__((noinline)) static void varying_frame(unsigned path, int depth)
{
	volatile char *pad = alloca(16 + (path % 5) * 48);
	pad[0] = (char)depth;
	descend(path * 13 + 1, depth);
	(void)pad[0];
}

static void walk_many(unsigned seed)
{
	for (unsigned i = 0; i < 3000; i++) {
		unsigned path = seed + i * 2654435761u;
		/*
		 * Mostly git-like depths; now and then deeper than the limit,
		 * or than the walk remembers (GT_STACK_DEPTH_MAX).
		 */
		int depth = i % 50 == 0 ? 70 : i % 111 == 0 ? 150 : (int)(path % 24);
		descend(path, depth);
		/* The same stack twice: the second walk is all reuse. */
		if (i % 7 == 0)
			descend(path, depth);
	}
}

static void *second_thread(void *arg)
{
	walk_many((unsigned)(uintptr_t)arg);
	return NULL;
}

static void on_signal(int sig)
{
	(void)sig;
	probe(1);
}

/* A coroutine on a stack of the program's own (makecontext). */
static ucontext_t main_context, coroutine_context;

static void coroutine(void)
{
	on_coroutine_stack = 1;
	walk_many(11);
	on_coroutine_stack = 0;
}

static void run_coroutine(void)
{
	size_t size = 1 << 20;
	void *stack = malloc(size);
	CHECK(getcontext(&coroutine_context) == 0);
	coroutine_context.uc_stack.ss_sp = stack;
	coroutine_context.uc_stack.ss_size = size;
	coroutine_context.uc_link = &main_context;
	makecontext(&coroutine_context, coroutine, 0);
	CHECK(swapcontext(&main_context, &coroutine_context) == 0);
	free(stack);
}

/* A signal handler on an alternate stack. */
static void signal_on_alternate_stack(void)
{
	static char alternate[1 << 16];
	stack_t ss = {.ss_sp = alternate, .ss_size = sizeof(alternate)};
	struct sigaction sa = {.sa_handler = on_signal, .sa_flags = SA_ONSTACK};
	CHECK(sigaltstack(&ss, NULL) == 0);
	sigemptyset(&sa.sa_mask);
	CHECK(sigaction(SIGUSR2, &sa, NULL) == 0);
	raise(SIGUSR2);
}

int main(void)
{
	unw_set_caching_policy(unw_local_addr_space, UNW_CACHE_PER_THREAD);
	gt_fork_guard_init();
	gt_stack_walk_init();
	walk_many(1);
	pthread_t t;
	CHECK(pthread_create(&t, NULL, second_thread, (void *)(uintptr_t)99) == 0);
	walk_many(7);
	CHECK(pthread_join(t, NULL) == 0);

	/* After a dlclose every rule is read again, and the walks still match. */
	gt_frame_rules_forget();
	walk_many(3);

	/* Stacks of the program's own: walked in full, never remembered. */
	run_coroutine();
	walk_many(5);

	signal(SIGUSR1, on_signal);
	raise(SIGUSR1);
	signal_on_alternate_stack();

	fprintf(stderr, "%d probes, %d walked, %d left to libunwind\n", probes, walked, unable);
	/* The walk did the work, not the fallback: only the special stacks. */
	CHECK(walked > 0 && walked + unable == probes);
	CHECK(unable <= 2 + coroutine_probes);
	return check_result("unit.stack_walk");
}
