/*
 * gittrace-replay-run: replays one op stream (ops.h) against whatever
 * malloc the process has, and reports how long that took. gittrace-replay
 * starts it once per allocator and round with LD_PRELOAD set to that
 * allocator, so allocators never mix; it is no command of its own.
 *
 * usage: gittrace-replay-run OPS
 * Prints one line on stdout:
 *   SECONDS PEAK_RSS_BYTES CALLS... EMULATED
 * SECONDS: CPU time (user + system, all threads) of the replay loop, from
 * releasing the replay threads until the last one is done: the replay's
 * own work, comparable with the image's CPU time and little disturbed by
 * what else the machine runs (spinning waits count: see below);
 * PEAK_RSS_BYTES: the peak resident size (getrusage) less the size before
 * the loop, so the replayer's code and its decoded ops do not count;
 * CALLS: the calls it
 * made per function of the malloc family (enum gt_fn 0..GT_FN_PVALLOC);
 * EMULATED: a bit mask (1 << fn) of the functions it called that the
 * allocator does not define, replayed through realloc or posix_memalign.
 * Exits 1 with one line on stderr when it cannot.
 *
 * Approximations (docs/replay.md):
 *   - one replay thread per recorded thread, each running its own calls in
 *     order; an op that must follow another thread's op (ops.h) spins, then
 *     yields, until that op is done. Otherwise threads run as the scheduler
 *     lets them, not at the recorded times;
 *   - the program's work between calls is gone: calls run back to back;
 *   - each new block is written once, as by a program that fills what it
 *     allocates: a block up to a page whole (memset), a larger one one
 *     byte per page (its page faults); a realloc only the part that grew.
 *     Freed blocks are not read.
 * Everything the replayer itself needs (ops, the slot table, per-thread
 * state) comes from mmap, so only the replayed calls use the allocator
 * under test. Built with -fno-builtin so the compiler keeps every call.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ops.h"

/* A replay thread: its ops, its progress (read by the others), its counts. */
struct thread {
	_Alignas(64) _Atomic uint64_t done; /* ops of this thread finished */
	struct gt_replay_op *ops;
	uint64_t nops;
	uint64_t calls[GT_REPLAY_FNS];
	pthread_t handle;
};

static struct thread *threads;
static void **table; /* the slots */
static size_t page;
static pthread_barrier_t start;

static _Noreturn void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("gittrace-replay-run: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

/* Anonymous zeroed memory outside the allocator under test. */
static void *map_zeroed(size_t bytes)
{
	void *p = mmap(NULL, bytes ? bytes : 1, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);
	if (p == MAP_FAILED)
		die("cannot map %zu bytes: %s", bytes, strerror(errno));
	return p;
}

/* Writes bytes [from, to) of a new block: whole up to a page, else a byte per page. */
static void touch(char *p, uint64_t from, uint64_t to)
{
	if (!p || to <= from)
		return;
	if (to - from <= page) {
		memset(p + from, 0x5a, to - from);
		return;
	}
	for (uint64_t off = from; off < to; off += page)
		((volatile char *)p)[off] = 0x5a;
}

static uint64_t mul_sat(uint64_t a, uint64_t b)
{
	return a && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

/* An allocation's result: into its slot, or freed if the recorded call had failed. */
static void settle(const struct gt_replay_op *op, void *p, uint64_t bytes)
{
	touch(p, 0, bytes);
	if (op->slot != GT_REPLAY_NONE)
		table[op->slot] = p;
	else
		free(p);
}

/* realloc and reallocarray: q is the result for the block in op->ref. */
static void settle_resize(const struct gt_replay_op *op, void *q, uint64_t bytes)
{
	if (op->slot == GT_REPLAY_NONE) {
		/* The recorded call freed the block (realloc(p, 0) -> NULL). */
		if (op->ref != GT_REPLAY_NONE)
			table[op->ref] = NULL;
		free(q);
		return;
	}
	touch(q, op->old, bytes);
	/* A failed resize left the old block in its slot (ops.h: the same slot). */
	if (q || !bytes)
		table[op->slot] = q;
}

/*
 * Functions of the family the preloaded allocator does not define itself
 * (jemalloc has no reallocarray or pvalloc): calling them would reach
 * glibc's, which may hand the allocator's blocks to glibc's own realloc.
 * They are replayed through the allocator's realloc and posix_memalign.
 */
static int emulated[GT_REPLAY_FNS];

static void find_emulated(const struct gt_replay_header *h)
{
	Dl_info allocator, own;
	if (!dladdr(dlsym(RTLD_DEFAULT, "free"), &allocator))
		die("cannot tell which library defines free");
	for (int fn = 0; fn < GT_REPLAY_FNS; fn++) {
		void *sym = dlsym(RTLD_DEFAULT, gt_fn_names[fn]);
		emulated[fn] = !sym || !dladdr(sym, &own) || own.dli_fbase != allocator.dli_fbase;
	}
	if (emulated[GT_FN_MALLOC] || emulated[GT_FN_CALLOC] || emulated[GT_FN_REALLOC])
		die("the allocator replaces free but not malloc, calloc and realloc");
	int aligned = h->calls[GT_FN_ALIGNED_ALLOC] + h->calls[GT_FN_MEMALIGN] +
			      h->calls[GT_FN_VALLOC] + h->calls[GT_FN_PVALLOC] +
			      h->calls[GT_FN_POSIX_MEMALIGN] >
		      0;
	if (emulated[GT_FN_POSIX_MEMALIGN] && aligned)
		die("the allocator has no posix_memalign: cannot replay aligned allocations");
}

/* The aligned family: the function itself, or posix_memalign in its place. */
static void *aligned(const struct gt_replay_op *op)
{
	void *p;
	uint64_t size = op->size, align = op->arg;
	switch ((enum gt_fn)op->fn) {
	case GT_FN_ALIGNED_ALLOC:
		if (!emulated[op->fn])
			return aligned_alloc(align, size);
		break;
	case GT_FN_MEMALIGN:
		if (!emulated[op->fn])
			return memalign(align, size);
		break;
	case GT_FN_VALLOC:
		if (!emulated[op->fn])
			return valloc(size);
		align = page;
		break;
	case GT_FN_PVALLOC:
		if (!emulated[op->fn])
			return pvalloc(size);
		align = page;
		size = (size + page - 1) / page * page;
		break;
	default:
		break;
	}
	return posix_memalign(&p, align, size) ? NULL : p;
}

static void *resize_array(void *old, uint64_t nmemb, uint64_t size)
{
	if (!emulated[GT_FN_REALLOCARRAY])
		return reallocarray(old, nmemb, size);
	if (nmemb && size > SIZE_MAX / nmemb) {
		errno = ENOMEM;
		return NULL;
	}
	return realloc(old, nmemb * size);
}

static void run_op(const struct gt_replay_op *op)
{
	void *old = op->ref != GT_REPLAY_NONE ? table[op->ref] : NULL;
	switch ((enum gt_fn)op->fn) {
	case GT_FN_MALLOC:
		settle(op, malloc(op->size), op->size);
		break;
	case GT_FN_CALLOC:
		settle(op, calloc(op->arg, op->size), mul_sat(op->arg, op->size));
		break;
	case GT_FN_REALLOC:
		settle_resize(op, realloc(old, op->size), op->size);
		break;
	case GT_FN_REALLOCARRAY:
		settle_resize(op, resize_array(old, op->arg, op->size), mul_sat(op->arg, op->size));
		break;
	case GT_FN_FREE:
		free(old);
		if (op->ref != GT_REPLAY_NONE)
			table[op->ref] = NULL;
		break;
	case GT_FN_POSIX_MEMALIGN:
	case GT_FN_ALIGNED_ALLOC:
	case GT_FN_MEMALIGN:
	case GT_FN_VALLOC:
	case GT_FN_PVALLOC:
		settle(op, aligned(op), op->size);
		break;
	default:
		break; /* ops.h: the decoder admits the malloc family only */
	}
}

/* Waits until thread t has finished its op number index. */
static void wait_for(uint32_t t, uint64_t index)
{
	unsigned spins = 0;
	while (atomic_load_explicit(&threads[t].done, memory_order_acquire) <= index)
		if (++spins > 64)
			sched_yield(); /* more replay threads than cores: let the other run */
}

static void *replay_thread(void *arg)
{
	struct thread *t = arg;
	pthread_barrier_wait(&start);
	for (uint64_t i = 0; i < t->nops; i++) {
		const struct gt_replay_op *op = &t->ops[i];
		if (op->wait_thread != GT_REPLAY_NONE)
			wait_for(op->wait_thread, op->wait_index);
		run_op(op);
		t->calls[op->fn]++;
		atomic_store_explicit(&t->done, i + 1, memory_order_release);
	}
	return NULL;
}

/* Reads the op stream at path: the header, and every thread's ops. */
static struct gt_replay_header load(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0)
		die("cannot open '%s': %s", path, strerror(errno));
	struct gt_replay_header h;
	if ((size_t)st.st_size < sizeof(h))
		die("'%s' is no op stream", path);
	const uint8_t *file = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (file == MAP_FAILED)
		die("cannot map '%s': %s", path, strerror(errno));
	close(fd);
	memcpy(&h, file, sizeof(h));
	if (h.magic != GT_REPLAY_MAGIC || !h.threads || h.slots >= GT_REPLAY_NONE)
		die("'%s' is no op stream", path);

	threads = map_zeroed(h.threads * sizeof(*threads));
	/* Two passes, counting then placing, so that each op is decoded
	 * straight into its thread's run and the replayer's own peak before
	 * the loop is no higher than during it. */
	const uint8_t *end = file + st.st_size;
	for (int pass = 0; pass < 2; pass++) {
		const uint8_t *p = file + sizeof(h);
		for (uint64_t i = 0; i < h.ops; i++) {
			struct gt_replay_op op;
			if (!gt_replay_op_decode(&p, end, &op) || op.thread >= h.threads ||
			    (op.slot != GT_REPLAY_NONE && op.slot >= h.slots) ||
			    (op.ref != GT_REPLAY_NONE && op.ref >= h.slots) ||
			    (op.wait_thread != GT_REPLAY_NONE && op.wait_thread >= h.threads))
				die("'%s': op %llu is bad", path, (unsigned long long)i);
			struct thread *t = &threads[op.thread];
			if (pass)
				t->ops[t->nops] = op;
			t->nops++;
		}
		if (pass)
			break;
		struct gt_replay_op *all = map_zeroed(h.ops * sizeof(*all));
		for (uint32_t t = 0; t < h.threads; t++) {
			threads[t].ops = all;
			all += threads[t].nops;
			threads[t].nops = 0;
		}
	}
	munmap((void *)file, st.st_size);
	table = map_zeroed(h.slots * sizeof(*table));
	return h;
}

/* The resident size now, from /proc/self/statm (pages). */
static uint64_t resident_bytes(void)
{
	FILE *f = fopen("/proc/self/statm", "re");
	unsigned long long size = 0, resident = 0;
	if (!f || fscanf(f, "%llu %llu", &size, &resident) != 2)
		die("cannot read /proc/self/statm");
	fclose(f);
	return resident * page;
}

/*
 * Resets the peak resident size to the current one (Linux >= 4.0), so that
 * getrusage's peak afterwards is the loop's. Harmless where it fails: the
 * load above never holds more than the loop does.
 */
static void reset_peak(void)
{
	FILE *f = fopen("/proc/self/clear_refs", "we");
	if (f) {
		fputs("5", f);
		fclose(f);
	}
}

/* CPU time of all the process's threads: the replay's own work, whatever
 * else the machine runs. */
static double cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	if (argc != 2)
		die("usage: gittrace-replay-run OPS");
	page = (size_t)sysconf(_SC_PAGESIZE);
	struct gt_replay_header h = load(argv[1]);
	find_emulated(&h);
	if (pthread_barrier_init(&start, NULL, h.threads + 1))
		die("cannot set up the threads");
	for (uint32_t t = 0; t < h.threads; t++)
		if (pthread_create(&threads[t].handle, NULL, replay_thread, &threads[t]))
			die("cannot start replay thread %u", t);
	uint64_t before = resident_bytes();
	reset_peak();
	double t0 = cpu_now();
	pthread_barrier_wait(&start);
	for (uint32_t t = 0; t < h.threads; t++)
		pthread_join(threads[t].handle, NULL);
	double seconds = cpu_now() - t0;

	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	uint64_t peak = (uint64_t)ru.ru_maxrss * 1024;
	printf("%.9f %llu", seconds, (unsigned long long)(peak > before ? peak - before : 0));
	for (int fn = 0; fn < GT_REPLAY_FNS; fn++) {
		uint64_t calls = 0;
		for (uint32_t t = 0; t < h.threads; t++)
			calls += threads[t].calls[fn];
		printf(" %llu", (unsigned long long)calls);
	}
	unsigned mask = 0;
	for (int fn = 0; fn < GT_REPLAY_FNS; fn++)
		mask |= emulated[fn] && h.calls[fn] ? 1u << fn : 0;
	printf(" %u\n", mask);
	return fflush(stdout) ? 1 : 0;
}
