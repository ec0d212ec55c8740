/*
 * The image's record stream: one block buffer shared by all threads, in
 * the order records are appended, split into columns (format.h), written
 * out as a block when full, at a regular interval, and at the image's end.
 *
 * One ordered stream (rather than a buffer per thread) keeps every free
 * after the allocation it frees in the file, so the analyzer can follow
 * the heap in one pass with memory bounded by live allocations. The price
 * is a lock around the append (not around the real call): uncontended in
 * single-threaded git, briefly contended in pack-objects' delta threads.
 * NEEDSWORK: per-thread buffers merged by timestamp would remove it.
 */
#include "stream.h"
#include "addr_refs.h"
#include "clock.h"
#include "fork_mark.h"
#include "pages.h"
#include "settings.h"
#include "stacks.h"
#include "tls.h"
#include "tracer.h"
#include "unwind.h"
#include "writer.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 32)
#include <sys/single_threaded.h>
#define GT_SINGLE_THREADED() (__libc_single_threaded != 0)
#else
#define GT_SINGLE_THREADED() 0
#endif

/*
 * Longest STACK body, longest USAGE record, and the most a call can add
 * besides its arguments.
 */
#define GT_STACK_BODY_MAX (GT_UV_MAX * (GT_STACK_DEPTH_MAX + 2))
#define GT_USAGE_MAX	  (1 + GT_UV_MAX + 5 * GT_UV_MAX)
#define GT_CALL_OVERHEAD  (2 * (1 + GT_UV_MAX) + GT_STACK_BODY_MAX + GT_USAGE_MAX + 64)

/*
 * Threads that allocate at the same time meet at the stream's lock on every
 * call, and hold it for about a call's recording. glibc's adaptive mutex
 * spins that long before sleeping in the kernel, where the default one
 * sleeps at once (docs/capture-cost.md, section 0.6, has what that costs).
 * Elsewhere the default one serves.
 */
#ifdef PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP
#define GT_STREAM_LOCK_INITIALIZER PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP
#define GT_STREAM_LOCK_TYPE	   PTHREAD_MUTEX_ADAPTIVE_NP
#else
#define GT_STREAM_LOCK_INITIALIZER PTHREAD_MUTEX_INITIALIZER
#define GT_STREAM_LOCK_TYPE	   PTHREAD_MUTEX_DEFAULT
#endif

static struct {
	pthread_mutex_t lock;
	/*
	 * The block being filled, column by column (format.h): each column has
	 * room for the whole block, so only the total needs checking. Pages a
	 * column does not use are never touched.
	 */
	uint8_t *col[GT_COL_COUNT];
	size_t len[GT_COL_COUNT];
	size_t total, cap;
	uint8_t directory[GT_COLUMN_DIRECTORY_MAX];
	uint32_t records;
	uint32_t seq; /* of the next block */
	uint32_t pid;
	uint64_t image_id;
	uint64_t base_ns;    /* time of the block's first call, 0 if none yet */
	uint64_t prev_units; /* time of the previous call in the block, in its units */
	uint32_t time_shift; /* of the block's times (format.h), set by its first call */
	uint64_t last_flush_ns;
	uint64_t last_read_ns; /* the last clock reading while the image has one thread */
	uint32_t epoch;	       /* changes with each image: invalidates thread ids */
	uint32_t next_serial;  /* threads seen (atomic) */
	uint32_t last_serial;  /* thread of the previous call in the block */
	int ended;	       /* END written: write each record at once */
	uint64_t calls, drops;
	uint64_t busy; /* calls counted by gt_stream_note_busy, not yet written (atomic) */
	/* A fork deferred (gt_stream_fork_deferred): busy's part that is the parent's. */
	int fork_deferred;
	uint64_t busy_at_fork;
	uint64_t tracer_ns; /* estimated time spent in the tracer (atomic) */
	/* A THREAD, STACK or USAGE record's body being encoded: here, not on
	 * the calling thread's stack, which may be small. */
	uint8_t body[GT_STACK_BODY_MAX];
} st = {.lock = GT_STREAM_LOCK_INITIALIZER};

static GT_TLS int holding; /* from before lock_stream takes it to after it is let go */

/*
 * A signal about to end the process that came while this thread held the
 * stream (gt_stream_hold_signal), and what takes it once the stream is
 * let go.
 */
static GT_TLS volatile sig_atomic_t held_signal;
static GT_TLS pid_t held_by; /* the process it came to: not a child forked meanwhile */
static void (*take_held_signal)(int sig);

/*
 * The thread's signal mask from before a block's write blocked every
 * signal (write_block_locked), restored once the stream is let go: a
 * signal that came during the write and ended the process from its
 * handler while the stream was held could not write the image's END
 * (lifecycle.h, gt_abandon_interrupted_hook). pending: to be restored.
 */
static GT_TLS struct {
	int pending;
	sigset_t mask;
} before_write;

/*
 * Takes the stream's lock, unless the process has a single thread, as
 * glibc's malloc skips its arenas' locks: no other thread can reach the
 * stream then (pthread_create clears the flag before it starts one, and
 * never from inside the stream), and this thread's signal handlers never
 * do while it is inside (the guard, tracer.h; holding, for a handler that
 * ends the process: lifecycle.h). The lock and its release were 64 instructions
 * and two atomic operations a call (docs/capture-cost.md, section 0.17).
 * Returns whether it locked, for unlock_stream.
 */
static int lock_stream(void)
{
	holding = 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST); /* before any change a handler could see */
	if (GT_SINGLE_THREADED())
		return 0;
	pthread_mutex_lock(&st.lock);
	return 1;
}

static void unlock_stream(int locked)
{
	if (locked)
		pthread_mutex_unlock(&st.lock);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	holding = 0;
	if (before_write.pending) { /* a signal held back meanwhile comes now */
		before_write.pending = 0;
		pthread_sigmask(SIG_SETMASK, &before_write.mask, NULL);
	}
	if (held_signal) {
		int sig = held_signal;
		held_signal = 0;
		/* A handler's fork while it was held: the child was sent nothing. */
		if (held_by == getpid())
			take_held_signal(sig);
	}
}

int gt_stream_hold_signal(int sig, void (*take)(int sig))
{
	pid_t self = getpid();
	/*
	 * Only in the process the stream is: a vfork child sees its parent's
	 * holding, and dies of the signal at once. A second signal held
	 * meanwhile waits behind the first, which ends the process.
	 */
	if (!holding || (uint32_t)self != st.pid)
		return 0;
	if (!held_signal || held_by != self) {
		take_held_signal = take;
		held_by = self;
		held_signal = sig;
	}
	return 1;
}

int gt_stream_held_here(void)
{
	return holding;
}

int gt_stream_ended(void)
{
	return st.ended;
}

/* The calling thread's identity in the current image. */
static GT_TLS struct {
	uint32_t epoch, serial, tid;
	uint32_t sample_state; /* xorshift state: which calls are timed */
	uint32_t calls;	       /* begun in the image, counted up to GT_TIMED_FIRST */
} self;

/* Recording a call, even unwinding a deep stack, takes well under this. */
#define GT_SAMPLE_MAX_NS 100000u

/*
 * 1 on a random 1 in GT_TIMED_ONE_IN calls: random, so that the sample
 * does not alias with a program's regular patterns of calls.
 */
static int sample_this_call(void)
{
	uint32_t x = self.sample_state ? self.sample_state : (uint32_t)(uintptr_t)&self | 1;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	self.sample_state = x;
	return (x % GT_TIMED_ONE_IN) == 0;
}

/* The functions timed on a sample of their calls (stream.h). */
static int sampled_fn(enum gt_fn fn)
{
	return fn <= GT_FN_PVALLOC && fn != GT_FN_REALLOC && fn != GT_FN_REALLOCARRAY;
}

static void identify_thread(void)
{
	if (self.epoch == st.epoch)
		return;
	self.epoch = st.epoch;
	self.calls = 0;
	self.serial = __atomic_add_fetch(&st.next_serial, 1, __ATOMIC_RELAXED);
	self.tid = (uint32_t)syscall(SYS_gettid);
}

int gt_stream_begin_call(enum gt_fn fn)
{
	identify_thread();
	if (self.calls < GT_TIMED_FIRST) {
		self.calls++;
		return GT_TIMED_FIRST_CALL;
	}
	if (!sampled_fn(fn))
		return GT_TIMED;
	return sample_this_call() ? GT_TIMED_SAMPLE : GT_UNTIMED;
}

uint64_t gt_stream_untimed_ns(void)
{
	return __atomic_load_n(&st.next_serial, __ATOMIC_RELAXED) > 1 ? gt_now_ns()
								      : GT_TIME_UNREAD;
}

/*
 * CALL times of a block while its image has had one thread: units of
 * 2^10 ns (about a µs) compress far better than ns, and with one thread
 * no free can race with an allocation (format.h).
 */
#define GT_ONE_THREAD_TIME_SHIFT 10

static uint32_t time_shift_now(void)
{
	return __atomic_load_n(&st.next_serial, __ATOMIC_RELAXED) > 1 ? 0
								      : GT_ONE_THREAD_TIME_SHIFT;
}

/* Keeps a clock reading taken under the lock while the image has one thread. */
static void note_reading(uint64_t t)
{
	if (time_shift_now() && t > st.last_read_ns)
		st.last_read_ns = t;
}

/*
 * The time of an untimed call the hook did not read the clock for
 * (GT_TIME_UNREAD). While the image has one thread the trace gives such a
 * call no time of its own (format.h, CALL), and the last reading serves if
 * the call starts a block. If a second thread came meanwhile, the race
 * rule (format.h) needs a time no later than a free's start and no earlier
 * than an allocation's end: the one thread's last reading for a free, a
 * reading now for an allocation (no other thread can free the block before
 * the hook returns it).
 */
static uint64_t untimed_time(enum gt_fn fn, uint32_t shift)
{
	return shift || fn == GT_FN_FREE ? st.last_read_ns : gt_now_ns();
}

int gt_stream_init(uint64_t image_id)
{
	st.cap = gt_settings.buffer_size;
	size_t size = st.cap * GT_COL_COUNT;
	uint8_t *pages = gt_pages(size);
	if (!pages || gt_addr_refs_init() != 0) {
		gt_pages_free(pages, size);
		gt_disable("cannot allocate the trace buffer; running untraced", NULL);
		return -1;
	}
	for (int c = 0; c < GT_COL_COUNT; c++)
		st.col[c] = pages + (size_t)c * st.cap;
	st.image_id = image_id;
	st.pid = (uint32_t)getpid();
	st.epoch++;
	st.last_flush_ns = st.last_read_ns = gt_now_ns();
	return 0;
}

static void empty_block(void)
{
	memset(st.len, 0, sizeof(st.len));
	st.total = 0;
	st.records = 0;
	st.base_ns = st.prev_units = 0;
	st.last_serial = 0; /* each block names its first thread */
	gt_addr_refs_block_start();
}

/* Another thread may have held the lock at fork: it is gone. */
static void new_lock(void)
{
	pthread_mutexattr_t attr;
	pthread_mutexattr_init(&attr);
	pthread_mutexattr_settype(&attr, GT_STREAM_LOCK_TYPE);
	pthread_mutex_init(&st.lock, &attr);
	pthread_mutexattr_destroy(&attr);
}

void gt_stream_fork_deferred(void)
{
	new_lock();
	st.fork_deferred = 1;
	st.busy_at_fork = __atomic_load_n(&st.busy, __ATOMIC_RELAXED);
}

void gt_stream_reset_after_fork(uint64_t image_id)
{
	new_lock();
	empty_block();
	st.seq = 0;
	st.next_serial = 0;
	st.ended = 0;
	st.calls = st.drops = 0;
	/* The parent writes its own busy count. */
	uint64_t busy = __atomic_load_n(&st.busy, __ATOMIC_RELAXED);
	/* (Less if the hook wrote a count since, in a block dropped.) */
	__atomic_store_n(&st.busy,
			 st.fork_deferred && busy > st.busy_at_fork ? busy - st.busy_at_fork : 0,
			 __ATOMIC_RELAXED);
	st.fork_deferred = 0;
	st.tracer_ns = 0;
	st.image_id = image_id;
	st.pid = (uint32_t)getpid();
	st.epoch++;
	st.last_flush_ns = st.last_read_ns = gt_now_ns();
	gt_stacks_reset();
}

/*
 * The block's raw bytes as pieces: the column directory, then the columns
 * that have bytes; returns how many pieces, and their length in *raw_size.
 */
static unsigned pieces_of_block(struct gt_raw_piece *pieces, size_t *raw_size)
{
	uint8_t *p = gt_put_uv(st.directory, GT_COL_COUNT);
	for (int c = 0; c < GT_COL_COUNT; c++)
		p = gt_put_uv(p, st.len[c]);
	unsigned n = 0;
	pieces[n++] = (struct gt_raw_piece){st.directory, (size_t)(p - st.directory)};
	*raw_size = pieces[0].len;
	for (int c = 0; c < GT_COL_COUNT; c++)
		if (st.len[c]) {
			pieces[n++] = (struct gt_raw_piece){st.col[c], st.len[c]};
			*raw_size += st.len[c];
		}
	return n;
}

/* Tracing has stopped for good: nothing touches the buffers again. */
static void forget_buffers_locked(void)
{
	memset(st.col, 0, sizeof(st.col));
	st.cap = 0; /* no call makes room any more */
	gt_writer_give_back();
}

/*
 * Writes the block; returns the time that took (tracer time). The last
 * block is written after tracing stopped (gt_stream_give_back). A block
 * that cannot be written stops tracing for good (writer.c): the program
 * runs on untraced, and the buffers and the compressor, which it would
 * otherwise carry to its end, go back to it (a full disk or the size limit
 * may come before a limit on address space, and an untraced call is not
 * made again).
 */
static uint64_t write_block_locked(int last)
{
	if (!st.records)
		return 0;
	/*
	 * No signal handler runs from the check below to the write: one that
	 * forked there made a child that went on to write its parent's block
	 * (a child of a fork not made an image of its own yet: lifecycle.c).
	 * That block is the parent's, which writes it. Nor until the stream
	 * is let go (unlock_stream restores the mask).
	 */
	sigset_t all, was;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &was);
	if (!before_write.pending) { /* a second block under one hold keeps the first's */
		before_write.mask = was;
		before_write.pending = 1;
	}
	if (gt_fork_missed()) {
		empty_block();
		return 0;
	}
	uint64_t t0 = gt_now_ns();
	struct gt_raw_piece pieces[1 + GT_COL_COUNT];
	size_t raw_size;
	unsigned npieces = pieces_of_block(pieces, &raw_size);
	struct gt_block_header h = {
		.magic = GT_BLOCK_MAGIC,
		.major = GT_FORMAT_MAJOR,
		.minor = GT_FORMAT_MINOR,
		.image_id = st.image_id,
		.pid = st.pid,
		.seq = st.seq++,
		.raw_size = (uint32_t)raw_size,
		.records = st.records,
		.time_shift = st.time_shift,
		.base_ns = st.base_ns,
	};
	int failed = last ? gt_writer_write_last_block(&h, pieces, npieces)
			  : gt_writer_write_block(&h, pieces, npieces);
	empty_block();
	if (failed && !last) {
		gt_pages_free(st.col[0], st.cap * GT_COL_COUNT); /* one mapping: gt_stream_init */
		forget_buffers_locked();
	}
	st.last_flush_ns = gt_now_ns();
	note_reading(st.last_flush_ns);
	uint64_t spent = st.last_flush_ns - t0;
	__atomic_add_fetch(&st.tracer_ns, spent, __ATOMIC_RELAXED);
	return spent;
}

static uint64_t flush_locked(void)
{
	return write_block_locked(0);
}

/*
 * Where column c's room ends, page-aligned: in the last column, at the end
 * of the pages mapped; else at the page where the next column starts,
 * which holds that column's first bytes.
 */
static uintptr_t room_end(int c, uintptr_t page)
{
	uintptr_t end = (uintptr_t)(st.col[c] + st.cap);
	return c + 1 < GT_COL_COUNT ? end & ~(page - 1) : (end + page - 1) & ~(page - 1);
}

/* Where the pages holding column c's bytes end. */
static uintptr_t held_end(int c, uintptr_t page)
{
	return ((uintptr_t)(st.col[c] + st.len[c]) + page - 1) & ~(page - 1);
}

void gt_stream_give_back(const char *why)
{
	int saved_errno = errno;
	int locked = lock_stream();
	if (st.cap) {
		/*
		 * Tracing stops first: a fork from now on makes an untraced
		 * child, which never touches the buffers. Then the columns'
		 * pages past what they hold go: the compressor may need memory
		 * for this last block (zstd takes its working memory at its
		 * first block), and may get it there, so after it only the
		 * pages that held bytes are ours to free.
		 */
		gt_disable(why, NULL);
		uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), held[GT_COL_COUNT];
		for (int c = 0; c < GT_COL_COUNT; c++) {
			held[c] = held_end(c, page);
			if (held[c] < room_end(c, page))
				gt_pages_free((void *)held[c], room_end(c, page) - held[c]);
		}
		write_block_locked(1);
		uintptr_t from = (uintptr_t)st.col[0]; /* mapped: page-aligned */
		for (int c = 0; c < GT_COL_COUNT; c++) {
			/* A page two columns share is freed once. */
			if (from < held[c])
				gt_pages_free((void *)from, held[c] - from);
			if (c + 1 < GT_COL_COUNT)
				from = held[c] > room_end(c, page) ? held[c] : room_end(c, page);
		}
		forget_buffers_locked();
	}
	unlock_stream(locked);
	errno = saved_errno;
}

/* Where column c's next entry goes; column_grew_to says where it ended. */
static uint8_t *column_end(enum gt_column c)
{
	return st.col[c] + st.len[c];
}

static void column_grew_to(enum gt_column c, const uint8_t *end)
{
	size_t n = (size_t)(end - column_end(c));
	st.len[c] += n;
	st.total += n;
}

/* Appends len bytes to column c. The caller made room. */
static void put(enum gt_column c, const void *bytes, size_t len)
{
	memcpy(column_end(c), bytes, len);
	column_grew_to(c, column_end(c) + len);
}

static void put_byte(enum gt_column c, uint8_t byte)
{
	*column_end(c) = byte;
	column_grew_to(c, column_end(c) + 1);
}

/*
 * Appends a call's bytes of column c (GT_COL_SIZE or GT_COL_OTHER), made
 * room for. Most are a few bytes: a copy of a fixed 16, inlined, costs
 * less than a call of memcpy for the length. It reads within the caller's
 * buffer (GT_CALL_ARGS_MAX bytes, stream.h) and writes within the room
 * made: every column has room for all of a call's bytes (GT_CALL_OVERHEAD).
 */
static void put_args(enum gt_column c, const struct gt_call_bytes *a)
{
	size_t len = (size_t)(a->args.at[c] - a->from[c]);
	if (len > 16)
		memcpy(column_end(c), a->from[c], len);
	else
		memcpy(column_end(c), a->from[c], 16);
	column_grew_to(c, column_end(c) + len);
}
_Static_assert(GT_CALL_ARGS_MAX >= 16 && GT_CALL_OVERHEAD >= 16, "put_args copies 16 bytes");

static void put_uv(enum gt_column c, uint64_t v)
{
	column_grew_to(c, gt_put_uv(column_end(c), v));
}

/* Appends a record other than CALL, whole, to GT_COL_RECORDS. The caller made room. */
static void put_record(enum gt_record_tag tag, const uint8_t *body, size_t len)
{
	put_byte(GT_COL_RECORDS, (uint8_t)tag);
	put_uv(GT_COL_RECORDS, len);
	put(GT_COL_RECORDS, body, len);
	st.records++;
}

/*
 * Flushes if need more bytes do not fit; returns 0 if they fit now. Adds
 * the time a flush took to *flush_ns.
 */
static int make_room(size_t need, uint64_t *flush_ns)
{
	if (st.total + need > st.cap)
		*flush_ns += flush_locked();
	return st.total + need <= st.cap ? 0 : -1;
}

/* The most bytes a DROPPED record takes: its tag, length and two fields. */
#define GT_DROPPED_MAX (2 + 3 * GT_UV_MAX)

void gt_stream_note_busy(void)
{
	__atomic_add_fetch(&st.busy, 1, __ATOMIC_RELAXED);
}

/*
 * Writes the calls counted busy since the last time as one DROPPED record.
 * Lock held, GT_DROPPED_MAX bytes of room made. A handler on this thread
 * may count one more meanwhile: it stays for the next record.
 */
static void put_busy(void)
{
	if (!__atomic_load_n(&st.busy, __ATOMIC_RELAXED))
		return;
	uint64_t n = __atomic_exchange_n(&st.busy, 0, __ATOMIC_RELAXED);
	uint8_t body[2 * GT_UV_MAX];
	uint8_t *end = gt_encode_dropped_body(body, n, GT_DROP_BUSY);
	put_record(GT_REC_DROPPED, body, (size_t)(end - body));
}

static void record_locked(enum gt_record_tag tag, const uint8_t *body, size_t len)
{
	uint64_t flush_ns = 0;
	if (make_room(GT_DROPPED_MAX + 1 + GT_UV_MAX + len, &flush_ns) == 0) {
		put_busy();
		put_record(tag, body, len);
		if (st.ended)
			flush_locked(); /* its time is counted there */
	} else {
		st.drops++;
	}
}

void gt_stream_record(enum gt_record_tag tag, const uint8_t *body, size_t len)
{
	int locked = lock_stream();
	record_locked(tag, body, len);
	unlock_stream(locked);
}

int gt_stream_end(const uint8_t *body, size_t len)
{
	int locked = lock_stream();
	int first = !st.ended;
	if (first) {
		st.ended = 1;
		record_locked(GT_REC_END, body, len); /* flushes: ended */
	}
	unlock_stream(locked);
	return first;
}

/* The most bytes a call's arguments take in the columns. */
static size_t args_len(const struct gt_call_bytes *a)
{
	return (size_t)(a->args.at[GT_COL_SIZE] - a->from[GT_COL_SIZE]) +
	       (size_t)(a->args.at[GT_COL_OTHER] - a->from[GT_COL_OTHER]) +
	       a->args.naddrs * 3 * GT_UV_MAX;
}

/* The P arguments of a call of fn, coded against the block's addresses (format.h, "Addresses"). */
static void put_addrs(enum gt_fn fn, const struct gt_call_args *a)
{
	for (unsigned i = 0; i < a->naddrs; i++) {
		int64_t delta = 0;
		enum gt_addr_role role = gt_fn_is_heap(fn) ? a->roles[i] : GT_ADDR_PLAIN;
		uint64_t code = gt_addr_refs_code(a->addrs[i], role, a->bytes, &delta);
		put_uv(role == GT_ADDR_RETURNED ? GT_COL_RETURNED : GT_COL_ADDR, code);
		if (code == GT_ADDR_NEW)
			column_grew_to(GT_COL_NEW_ADDR,
				       gt_put_new_addr(column_end(GT_COL_NEW_ADDR), delta));
	}
}

/* Appends the CALL entry and its fields (format.h, CALL). The caller made room. */
static void put_call(enum gt_fn fn, int timed, int sampled, uint64_t t, uint64_t duration_ns,
		     uint32_t stack_id, const struct gt_call_bytes *a)
{
	put_byte(GT_COL_RECORDS, (uint8_t)(GT_CALL_TOKEN | (timed ? GT_CALL_TIMED : 0) |
					   (sampled ? GT_CALL_SAMPLED : 0) |
					   (stack_id ? GT_CALL_STACK : 0) | (unsigned)fn));
	if (!st.base_ns) {
		st.time_shift = time_shift_now();
		st.prev_units = t >> st.time_shift;
		st.base_ns = st.prev_units << st.time_shift;
	}
	/* While the image has one thread, only timed calls carry a time (format.h, CALL). */
	if (timed || !st.time_shift) {
		uint64_t units = t >> st.time_shift;
		put_uv(GT_COL_TIME, gt_zigzag((int64_t)(units - st.prev_units)));
		st.prev_units = units;
	}
	if (timed)
		put_uv(GT_COL_DURATION, duration_ns);
	if (stack_id)
		put_uv(GT_COL_STACK, stack_id);
	put_args(GT_COL_SIZE, a);
	put_addrs(fn, &a->args);
	put_args(GT_COL_OTHER, a);
	st.records++;
}

/*
 * The tracer's own cost in a timed call (enum gt_timing): in each of a
 * thread's first calls, counted once; after them on a random 1 in
 * GT_TIMED_ONE_IN calls of each function (the sampled calls, and a draw
 * among the always-timed ones), scaled up. From the end of the real call
 * to now, less any block written (already counted), plus about one clock
 * reading, of those the hook makes that the duration does not hold.
 */
static void add_tracer_cost(int timed, uint64_t end_ns, uint64_t flush_ns)
{
	uint64_t weight = timed == GT_TIMED_FIRST_CALL ? 1 : GT_TIMED_ONE_IN;
	if (timed == GT_TIMED && !sample_this_call())
		return;
	uint64_t now = gt_now_ns();
	uint64_t spent = now > end_ns + flush_ns ? now - end_ns - flush_ns : 0;
	/* Longer is a wait for the CPU (scaled up, it would count 16 times). */
	if (spent > GT_SAMPLE_MAX_NS)
		spent = GT_SAMPLE_MAX_NS;
	spent += gt_clock_overhead_ns;
	__atomic_add_fetch(&st.tracer_ns, spent * weight, __ATOMIC_RELAXED);
}

int gt_stream_call(enum gt_fn fn, int timed, uint64_t t0, uint64_t t1,
		   const struct gt_call_bytes *args, const struct gt_usage *usage)
{
	uintptr_t ips[GT_STACK_DEPTH_MAX];
	/* A free's stack is never read: its block's is its allocation's. */
	int depth = gt_settings.stack_depth && fn != GT_FN_FREE
			    ? gt_unwind(ips, (int)gt_settings.stack_depth)
			    : 0;
	uint64_t flush_ns = 0;

	identify_thread(); /* done already unless the image changed since */
	int locked = lock_stream();
	/* A second thread: its calls and the first one's may race, in ns. */
	uint32_t shift = time_shift_now();
	if (st.base_ns && st.time_shift != shift)
		flush_ns += flush_locked();
	/*
	 * realloc is timed for the race rule (format.h); while the image has
	 * one thread no race can be, and only a sample keeps the duration.
	 */
	if (timed == GT_TIMED && (fn == GT_FN_REALLOC || fn == GT_FN_REALLOCARRAY) && shift)
		timed = sample_this_call() ? GT_TIMED_SAMPLE : GT_UNTIMED;
	int sampled = timed == GT_TIMED_SAMPLE;
	if (t1 == GT_TIME_UNREAD)
		t1 = untimed_time(fn, shift);
	else
		note_reading(t1);
	if (make_room(GT_DROPPED_MAX + GT_CALL_OVERHEAD + args_len(args), &flush_ns)) {
		st.drops++;
		goto out;
	}
	put_busy();
	if (self.serial != st.last_serial) {
		uint8_t *end = gt_encode_thread_body(st.body, self.serial, self.tid);
		put_record(GT_REC_THREAD, st.body, (size_t)(end - st.body));
		st.last_serial = self.serial;
	}
	uint32_t stack_id = 0;
	int is_new = 0;
	if (depth > 0) {
		stack_id = gt_stacks_intern(ips, depth, &is_new);
		if (is_new) {
			uint8_t *end =
				gt_encode_stack_body(st.body, stack_id, (uint64_t)depth, ips);
			put_record(GT_REC_STACK, st.body, (size_t)(end - st.body));
		}
	}
	put_call(fn, timed, sampled, timed ? t0 : t1, t1 - t0, stack_id, args);
	if (usage) { /* right behind its CALL, in the same block */
		const struct rusage *ru = &usage->ru;
		uint8_t *end = gt_encode_usage_body(
			st.body, (uint64_t)ru->ru_minflt, (uint64_t)ru->ru_majflt,
			gt_timeval_ns(ru->ru_utime), gt_timeval_ns(ru->ru_stime), usage->tracer_ns);
		put_record(GT_REC_USAGE, st.body, (size_t)(end - st.body));
	}
	st.calls++;
	if (st.ended ||
	    (t1 > st.last_flush_ns && t1 - st.last_flush_ns > gt_settings.flush_interval_ns))
		flush_ns += flush_locked();
out:
	unlock_stream(locked);
	if (timed)
		add_tracer_cost(timed, t1, flush_ns);
	return is_new;
}

void gt_stream_flush(void)
{
	int locked = lock_stream();
	flush_locked();
	unlock_stream(locked);
}

void gt_stream_resume(void)
{
	int locked = lock_stream();
	st.ended = 0;
	unlock_stream(locked);
}

uint64_t gt_stream_calls(void)
{
	return st.calls;
}

uint64_t gt_stream_tracer_ns(void)
{
	return __atomic_load_n(&st.tracer_ns, __ATOMIC_RELAXED);
}

uint64_t gt_stream_drops(void)
{
	return st.drops;
}

int gt_stream_is_ours(void)
{
	return (uint32_t)getpid() == st.pid;
}

uint32_t gt_stream_threads(void)
{
	return __atomic_load_n(&st.next_serial, __ATOMIC_RELAXED);
}
