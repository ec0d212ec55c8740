/*
 * The caller's stack, walked with the frame rules (frame_rules.c), and
 * mostly not walked at all: consecutive allocations of a thread share
 * their outer frames, so each thread remembers its last walk.
 *
 * A walk is a function of the registers it starts from (ip, rsp, rbp)
 * and of the stack words it reads: each frame's return address at CFA - 8
 * and, where the rule says so, the saved rbp. So when the walk reaches a
 * frame whose (ip, rsp, rbp) is a remembered frame's, and every word the
 * remembered walk read from there outwards holds the same value now, the
 * rest of the walk is the remembered one, exactly: those words are
 * compared, not stepped through. On git's stacks (19 frames deep) about
 * four frames are stepped per allocation.
 *
 * Memory: a walk reads only the stack it walks. The thread's first walk
 * to end at a frame without a caller (_start, or clone's thread start: a
 * thread's first allocation is made on its own stack) marks the top of
 * the thread's stack, and later steps never read above it: a step that
 * would is on another stack, or the stack has gone wrong, and the walk is
 * libunwind's. Only walks that end at that top are remembered: the words
 * they compare lie on the thread's own stack, whose touched pages stay
 * mapped as long as the thread lives.
 * So a walk goes on past the depth limit to the entry frame (at most
 * GT_WALK_MEMO_FRAMES; deeper stacks are walked to the limit only).
 * Within the bounds, the reads are as safe as the modules' CFI is right.
 *
 * A frame the rules cannot follow (a signal frame, code without CFI) ends
 * the walk with GT_WALK_UNABLE, and libunwind takes the whole stack.
 *
 * Once the thread's top is known, a walk that starts outside its stack (a
 * coroutine's stack, a signal handler's alternate stack) is a foreign
 * walk: never remembered, it reads only memory it has found readable
 * first, and where it cannot go on it ends, with the frames it has.
 * libunwind is not asked: it reads such stacks without a check, and
 * crashed on the guard page above a coroutine's stack; its frames also
 * took more of a small alternate stack than was left. (A thread whose
 * first walk to an end were on a stack of the program's own would take
 * that stack's top instead: its walks on its own stack would be foreign.)
 */
#include "stack_walk.h"
#include "fork_guard.h"
#include "frame_rules.h"
#include "loader.h"
#include "pages.h"
#include "readable.h"
#include "settings.h"
#include "tls.h"
#include "tracer.h"

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

struct frame {
	uintptr_t ip; /* return address into this frame */
	uintptr_t sp; /* rsp in this frame at that address: the callee's CFA */
	uintptr_t rbp;
	uintptr_t rbp_slot; /* where its caller's rbp was read, or 0: unchanged */
};

/* The deepest walk remembered; deeper stacks are walked to the limit. */
#define GT_WALK_MEMO_FRAMES GT_STACK_DEPTH_MAX

/* A thread's walks, from gt_pages: a few KiB the thread's stack and TLS do not pay. */
struct memo {
	struct frame walks[2][GT_WALK_MEMO_FRAMES]; /* the last walk and the next, in turns */
	int frames[2];				    /* 0: nothing to reuse */
	int now;				    /* which one is the last walk */
	unsigned deep;	     /* walks since one ran out of room: walk to the limit only */
	unsigned generation; /* of the frame rules the walks were made with */
	/* The sp of the thread's entry frame, from its first walk to end there. */
	uintptr_t stack_top;
};

static GT_TLS struct memo *memo;
#define GT_MEMO_GONE ((struct memo *)1) /* released at thread exit */
static pthread_key_t memo_key;
static int have_memo_key;

/* While a stack is too deep to remember, every this many walks try again. */
#define GT_WALK_DEEP_RETRY 256

/* The tracer's own frames above a walk: hook, gt_stream_call, gt_unwind, ... */
#define GT_WALK_OWN_MAX 8

/* A return address below this is no code (0: a hand-made end); libunwind's too. */
#define GT_WALK_LOWEST_IP 0x4000

/* A frame larger than this is a wrong rule; let libunwind judge. */
#define GT_WALK_FRAME_MAX ((uintptr_t)1 << 28)

/* A foreign walk reads at most this many pages above where it starts. */
#define GT_WALK_FOREIGN_PAGES 16
_Static_assert(GT_WALK_FOREIGN_PAGES <= GT_READABLE_PAGES_MAX, "one probe for them all");

/*
 * How far below its top a thread's own stack reaches: the stack size
 * limit, which is the main thread's and other threads' default (set in
 * gt_stack_walk_init). A thread made with a larger stack that goes deeper
 * has its deep walks taken for foreign ones: bounded, never unsafe.
 */
static uintptr_t own_stack_span = (uintptr_t)8 << 20;

/*
 * The end of the memory readable from sp's page upwards, at most
 * GT_WALK_FOREIGN_PAGES pages, where a load would fault. sp's own page is
 * readable: the walk is on it.
 */
static uintptr_t readable_top(uintptr_t sp)
{
	uintptr_t page = sp & ~(uintptr_t)(GT_READABLE_PAGE - 1);
	long n = gt_readable_pages(page, GT_WALK_FOREIGN_PAGES);
	return page + (uintptr_t)(n > 1 ? n : 1) * GT_READABLE_PAGE;
}

/*
 * Steps from f to its caller by rule r: fills f->rbp_slot and *caller.
 * -1 if the step leaves the stack's order (a wrong rule).
 */
static int step(struct frame *f, struct gt_frame_rule r, uintptr_t top, struct frame *caller)
{
	uintptr_t base = r.flags & GT_RULE_CFA_FROM_RBP ? f->rbp : f->sp;
	uintptr_t cfa = base + (uintptr_t)(intptr_t)r.cfa_offset;
	if (cfa <= f->sp || cfa - f->sp > GT_WALK_FRAME_MAX || cfa % sizeof(uintptr_t))
		return -1;
	/* Above the thread's entry frame: another stack, or a stack gone wrong. */
	if (top && cfa > top)
		return -1;
	f->rbp_slot = r.flags & GT_RULE_RBP_SAVED ? cfa + (uintptr_t)(intptr_t)r.rbp_offset : 0;
	caller->ip = *(const uintptr_t *)(cfa - sizeof(uintptr_t));
	caller->sp = cfa;
	caller->rbp = f->rbp_slot ? *(const uintptr_t *)f->rbp_slot : f->rbp;
	return 0;
}

/*
 * Whether the words the remembered walk read from frame j outwards hold
 * what they held. Returns -1 if they all do, else the first frame whose
 * reads differ: no reuse can start at or below it.
 */
static int first_changed(const struct frame *m, int j, int n)
{
	for (int i = j; i + 1 < n; i++) {
		const struct frame *caller = &m[i + 1];
		if (*(const uintptr_t *)(caller->sp - sizeof(uintptr_t)) != caller->ip ||
		    (m[i].rbp_slot && *(const uintptr_t *)m[i].rbp_slot != caller->rbp))
			return i;
	}
	return -1;
}

/*
 * The frame of the first caller outside [own_start, own_end): the tracer
 * is built with frame pointers, so its own frames are a chain of rbp.
 * -1 if the chain looks wrong.
 */
static int first_caller(uintptr_t own_start, uintptr_t own_end, uintptr_t top, struct frame *f)
{
	uintptr_t fp = (uintptr_t)__builtin_frame_address(0);
	for (int own = 0; own < GT_WALK_OWN_MAX; own++) {
		const uintptr_t *slot = (const uintptr_t *)fp;
		if (fp % sizeof(uintptr_t))
			return -1;
		if (slot[1] < own_start || slot[1] >= own_end) {
			*f = (struct frame){
				.ip = slot[1], .sp = fp + 2 * sizeof(uintptr_t), .rbp = slot[0]};
			return 0;
		}
		if (slot[0] <= fp || slot[0] - fp > GT_WALK_FRAME_MAX || (top && slot[0] >= top))
			return -1;
		fp = slot[0];
	}
	return -1;
}

static void release_memo(void *m)
{
	gt_pages_free(m, sizeof(struct memo));
	memo = GT_MEMO_GONE; /* a later destructor's allocation: libunwind's */
}

void gt_stack_walk_init(void)
{
	have_memo_key = !pthread_key_create(&memo_key, release_memo);
	struct rlimit rl;
	if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    rl.rlim_cur >= own_stack_span)
		own_stack_span = (uintptr_t)rl.rlim_cur;
}

void gt_stack_walk_after_dlclose(void)
{
	/*
	 * Most dlcloses only drop a reference: the module stays, and so do its
	 * rules. The loader counts the modules really unloaded.
	 */
	static _Atomic unsigned long long unloads_seen;
	struct gt_loader_counts now;
	if (gt_loader_counts(&now) ||
	    atomic_exchange_explicit(&unloads_seen, now.subs, memory_order_relaxed) != now.subs)
		gt_frame_rules_forget();
}

void gt_stack_walk_give_back(void)
{
	gt_frame_rules_give_back();
}

/* The thread's memo, made on its first walk; NULL if it cannot have one. */
static struct memo *thread_memo(void)
{
	if (!memo && have_memo_key) {
		struct memo *m = gt_pages(sizeof(*m));
		/* A key past glibc's first 32 gets its slots from calloc: the tracer's own. */
		struct gt_own guard = gt_own_begin();
		int failed = m && pthread_setspecific(memo_key, m);
		gt_own_end(&guard);
		if (failed) {
			gt_pages_free(m, sizeof(*m));
			m = NULL;
		}
		memo = m ? m : GT_MEMO_GONE;
	}
	return memo == GT_MEMO_GONE ? NULL : memo;
}

/* No rule yet for *missing: learn it, walk again. */
#define GT_WALK_MISSING (-2)

static int walk_once(uintptr_t *ips, int limit, uintptr_t own_start, uintptr_t own_end,
		     uintptr_t *missing, int *foreign_walk)
{
	struct memo *m = thread_memo();
	if (!m || limit > GT_WALK_MEMO_FRAMES)
		return GT_WALK_UNABLE;
	unsigned rules_now = gt_frame_rules_generation();
	if (m->generation != rules_now) { /* a module went: its frames may be another's now */
		m->frames[0] = m->frames[1] = 0;
		m->generation = rules_now;
	}
	const struct frame *old = m->walks[m->now];
	int old_n = m->frames[m->now];
	struct frame *w = m->walks[!m->now];
	/* To the stack's end, so that it can be remembered, unless it is too deep. */
	int room = m->deep && m->deep % GT_WALK_DEEP_RETRY ? limit : GT_WALK_MEMO_FRAMES;
	int n = 0, j = 0, reuse_from = 0, ended = 0;
	uintptr_t here = (uintptr_t)__builtin_frame_address(0), top = m->stack_top;
	int foreign = top && (here >= top || top - here > own_stack_span);
	*foreign_walk = foreign;
	if (foreign) {
		top = readable_top(here);
		old_n = 0; /* remembered walks are of the thread's own stack */
	}

	if (first_caller(own_start, own_end, top, &w[0]))
		return foreign ? 0 : GT_WALK_UNABLE;
	for (;;) {
		struct frame *f = &w[n];
		/* A return address is looked up inside its call. */
		struct gt_frame_rule r = gt_frame_rule_find(f->ip - 1);
		if (!r.kind) {
			*missing = f->ip - 1;
			return GT_WALK_MISSING;
		}
		if (r.kind == GT_RULE_OTHER && foreign) {
			n++; /* the frame is known; its caller is not */
			break;
		}
		if (r.kind == GT_RULE_OTHER)
			return GT_WALK_UNABLE;
		n++;
		if (r.kind == GT_RULE_LAST) {
			f->rbp_slot = 0;
			ended = 1;
			break;
		}
		if (n == room)
			break;
		struct frame *caller = &w[n];
		if (step(f, r, top, caller) || caller->ip < GT_WALK_LOWEST_IP) {
			if (foreign)
				break;
			return GT_WALK_UNABLE; /* for libunwind, as an end read from memory */
		}

		while (j < old_n && old[j].sp < caller->sp)
			j++;
		if (j >= reuse_from && j < old_n && old[j].sp == caller->sp &&
		    old[j].ip == caller->ip && old[j].rbp == caller->rbp) {
			int changed = first_changed(old, j, old_n);
			if (changed < 0) {
				int take = old_n - j;
				ended = n + take <= room;
				if (!ended)
					take = room - n;
				memcpy(caller, &old[j], (size_t)take * sizeof(*caller));
				n += take;
				break;
			}
			reuse_from = changed + 1;
		}
	}
	int depth = n < limit ? n : limit;
	for (int i = 0; i < depth; i++)
		ips[i] = w[i].ip;
	if (foreign)
		return depth; /* neither remembered nor counted as deep */
	if (ended && !m->stack_top)
		m->stack_top = w[n - 1].sp;
	if (ended && w[n - 1].sp == m->stack_top) {
		m->now = !m->now;
		m->frames[m->now] = n;
	}
	if (ended)
		m->deep = 0;
	else if (room == GT_WALK_MEMO_FRAMES || m->deep)
		m->deep++;
	return depth;
}

/*
 * The walk, learning the rules it lacks on the way: each try learns one,
 * and a walk steps at most GT_WALK_MEMO_FRAMES frames.
 */
int gt_stack_walk(uintptr_t *ips, int limit, uintptr_t own_start, uintptr_t own_end)
{
	int foreign = 0;
	for (int tries = 0; tries <= GT_WALK_MEMO_FRAMES; tries++) {
		uintptr_t missing = 0;
		int n = walk_once(ips, limit, own_start, own_end, &missing, &foreign);
		if (n != GT_WALK_MISSING)
			return n;
		gt_fork_guard_enter();
		int failed = gt_frame_rule_learn(missing);
		gt_fork_guard_leave();
		if (failed)
			break;
	}
	/* Never libunwind on a foreign stack (above): no frames rather than that. */
	return foreign ? 0 : GT_WALK_UNABLE;
}
