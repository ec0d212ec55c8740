/*
 * The image's record stream: one buffer shared by all threads, in the
 * order records are appended, written out as a block when full, at a
 * regular interval, and at the image's end.
 *
 * One ordered stream (rather than a buffer per thread) keeps every free
 * after the allocation it frees in the file, so the analyzer can follow
 * the heap in one pass with memory bounded by live allocations. The price
 * is a lock around the append (not around the real call): uncontended in
 * single-threaded git, briefly contended in pack-objects' delta threads.
 * NEEDSWORK: per-thread buffers merged by timestamp would remove it.
 */
#include "stream.h"
#include "clock.h"
#include "pages.h"
#include "settings.h"
#include "stacks.h"
#include "tls.h"
#include "tracer.h"
#include "unwind.h"
#include "writer.h"

#include <pthread.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

/*
 * Longest STACK body, longest USAGE record, and the most a call can add
 * besides its arguments.
 */
#define GT_STACK_BODY_MAX (GT_UV_MAX * (GT_MAX_STACK_DEPTH + 2))
#define GT_USAGE_MAX	  (1 + GT_UV_MAX + 4 * GT_UV_MAX)
#define GT_CALL_OVERHEAD  (2 * (1 + GT_UV_MAX) + GT_STACK_BODY_MAX + GT_USAGE_MAX + 64)

static struct {
	pthread_mutex_t lock;
	uint8_t *buf;
	size_t len, cap;
	uint32_t records;
	uint32_t seq; /* of the next block */
	uint32_t pid;
	uint64_t image_id;
	uint64_t base_ns; /* start of the block's first call, 0 if none yet */
	uint64_t prev_ns; /* start of the previous call in the block */
	uint64_t last_flush_ns;
	uint32_t epoch;	      /* changes with each image: invalidates thread ids */
	uint32_t next_serial; /* threads seen (atomic) */
	uint32_t last_serial; /* thread of the previous call in the block */
	int ended;	      /* END written: write each record at once */
	uint64_t calls, drops;
	uint64_t tracer_ns; /* estimated time spent in the tracer (atomic) */
} st = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* The calling thread's identity in the current image. */
static GT_TLS struct {
	uint32_t epoch, serial, tid;
	uint32_t sample_state; /* xorshift state for sampling tracer costs */
} self;

/*
 * The tracer's own cost is timed on a random 1 in GT_SAMPLE_EVERY calls
 * (random, so that it does not alias with a program's regular patterns of
 * calls) and scaled up: timing every call would cost another clock read.
 */
#define GT_SAMPLE_EVERY 16
/* Recording a call, even unwinding a deep stack, takes well under this. */
#define GT_SAMPLE_MAX_NS 100000u

static int sample_this_call(void)
{
	uint32_t x = self.sample_state ? self.sample_state : self.tid | 1;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	self.sample_state = x;
	return (x % GT_SAMPLE_EVERY) == 0;
}

static void identify_thread(void)
{
	if (self.epoch == st.epoch)
		return;
	self.epoch = st.epoch;
	self.serial = __atomic_add_fetch(&st.next_serial, 1, __ATOMIC_RELAXED);
	self.tid = (uint32_t)syscall(SYS_gettid);
}

int gt_stream_init(uint64_t image_id)
{
	st.cap = gt_settings.buffer_size;
	st.buf = gt_pages(st.cap);
	if (!st.buf) {
		gt_disable("cannot allocate the trace buffer; running untraced", NULL);
		return -1;
	}
	st.image_id = image_id;
	st.pid = (uint32_t)getpid();
	st.epoch++;
	st.last_flush_ns = gt_now_ns();
	return 0;
}

void gt_stream_reset_after_fork(uint64_t image_id)
{
	/* Another thread may have held the lock at fork: it is gone. */
	pthread_mutex_init(&st.lock, NULL);
	st.len = 0;
	st.records = 0;
	st.seq = 0;
	st.base_ns = st.prev_ns = 0;
	st.last_serial = 0;
	st.next_serial = 0;
	st.ended = 0;
	st.calls = st.drops = 0;
	st.tracer_ns = 0;
	st.image_id = image_id;
	st.pid = (uint32_t)getpid();
	st.epoch++;
	st.last_flush_ns = gt_now_ns();
	gt_stacks_reset();
}

/* Writes the buffer as a block; returns the time that took (tracer time). */
static uint64_t flush_locked(void)
{
	if (!st.len)
		return 0;
	uint64_t t0 = gt_now_ns();
	struct gt_block_header h = {
		.magic = GT_BLOCK_MAGIC,
		.major = GT_FORMAT_MAJOR,
		.minor = GT_FORMAT_MINOR,
		.image_id = st.image_id,
		.pid = st.pid,
		.seq = st.seq++,
		.raw_size = (uint32_t)st.len,
		.records = st.records,
		.base_ns = st.base_ns,
	};
	gt_writer_write_block(&h, st.buf, st.len);
	st.len = 0;
	st.records = 0;
	st.base_ns = st.prev_ns = 0;
	st.last_serial = 0; /* each block names its first thread */
	st.last_flush_ns = gt_now_ns();
	uint64_t spent = st.last_flush_ns - t0;
	__atomic_add_fetch(&st.tracer_ns, spent, __ATOMIC_RELAXED);
	return spent;
}

/*
 * Appends tag, length and a body given in two parts (head then tail, either
 * may be empty). The caller made room.
 */
static void put_record2(enum gt_record_tag tag, const uint8_t *head, size_t head_len,
			const uint8_t *tail, size_t tail_len)
{
	uint8_t *p = st.buf + st.len;
	*p++ = (uint8_t)tag;
	p = gt_put_uv(p, head_len + tail_len);
	memcpy(p, head, head_len);
	if (tail_len)
		memcpy(p + head_len, tail, tail_len);
	st.len = (size_t)(p + head_len + tail_len - st.buf);
	st.records++;
}

static void put_record(enum gt_record_tag tag, const uint8_t *body, size_t len)
{
	put_record2(tag, body, len, NULL, 0);
}

/*
 * Flushes if need more bytes do not fit; returns 0 if they fit now. Adds
 * the time a flush took to *flush_ns.
 */
static int make_room(size_t need, uint64_t *flush_ns)
{
	if (st.len + need > st.cap)
		*flush_ns += flush_locked();
	return st.len + need <= st.cap ? 0 : -1;
}

void gt_stream_record(enum gt_record_tag tag, const uint8_t *body, size_t len)
{
	uint64_t flush_ns = 0;
	pthread_mutex_lock(&st.lock);
	if (make_room(1 + GT_UV_MAX + len, &flush_ns) == 0) {
		put_record(tag, body, len);
		if (st.ended)
			flush_locked(); /* its time is counted there */
	} else {
		st.drops++;
	}
	pthread_mutex_unlock(&st.lock);
}

void gt_stream_call(enum gt_fn fn, uint64_t start_ns, uint64_t duration_ns, const uint8_t *args,
		    size_t args_len, const struct rusage *usage)
{
	uintptr_t ips[GT_MAX_STACK_DEPTH];
	int depth = gt_settings.stack_depth ? gt_unwind(ips, (int)gt_settings.stack_depth) : 0;
	uint8_t body[GT_STACK_BODY_MAX];

	uint64_t flush_ns = 0;

	identify_thread();
	pthread_mutex_lock(&st.lock);
	if (make_room(GT_CALL_OVERHEAD + args_len, &flush_ns)) {
		st.drops++;
		goto out;
	}
	if (self.serial != st.last_serial) {
		uint8_t *end = gt_encode_thread_body(body, self.serial, self.tid);
		put_record(GT_REC_THREAD, body, (size_t)(end - body));
		st.last_serial = self.serial;
	}
	uint32_t stack_id = 0;
	if (depth > 0) {
		int is_new;
		stack_id = gt_stacks_intern(ips, depth, &is_new);
		if (is_new) {
			uint8_t *end = gt_encode_stack_body(body, stack_id, (uint64_t)depth, ips);
			put_record(GT_REC_STACK, body, (size_t)(end - body));
		}
	}
	if (!st.base_ns)
		st.base_ns = st.prev_ns = start_ns;
	uint8_t *p = body;
	*p++ = (uint8_t)fn;
	p = gt_put_sv(p, (int64_t)(start_ns - st.prev_ns));
	p = gt_put_uv(p, duration_ns);
	p = gt_put_uv(p, stack_id);
	put_record2(GT_REC_CALL, body, (size_t)(p - body), args, args_len);
	if (usage) { /* right behind its CALL, in the same block */
		uint8_t *end = gt_encode_usage_body(
			body, (uint64_t)usage->ru_minflt, (uint64_t)usage->ru_majflt,
			gt_timeval_ns(usage->ru_utime), gt_timeval_ns(usage->ru_stime));
		put_record(GT_REC_USAGE, body, (size_t)(end - body));
	}
	st.prev_ns = start_ns;
	st.calls++;
	if (st.ended || start_ns - st.last_flush_ns > gt_settings.flush_interval_ns)
		flush_ns += flush_locked();
out:
	pthread_mutex_unlock(&st.lock);
	if (sample_this_call()) {
		/*
		 * From the end of the real call to now, less any block written
		 * (already counted), is this call's recording; plus about one clock
		 * reading, of the two the hook makes that its duration does not hold.
		 */
		uint64_t now = gt_now_ns(), end = start_ns + duration_ns;
		uint64_t spent = now > end + flush_ns ? now - end - flush_ns : 0;
		/* Longer is a wait for the CPU (scaled up, it would count 16 times). */
		if (spent > GT_SAMPLE_MAX_NS)
			spent = GT_SAMPLE_MAX_NS;
		spent += gt_clock_overhead_ns;
		__atomic_add_fetch(&st.tracer_ns, spent * GT_SAMPLE_EVERY, __ATOMIC_RELAXED);
	}
}

void gt_stream_flush(void)
{
	pthread_mutex_lock(&st.lock);
	flush_locked();
	pthread_mutex_unlock(&st.lock);
}

void gt_stream_set_ended(int ended)
{
	pthread_mutex_lock(&st.lock);
	st.ended = ended;
	pthread_mutex_unlock(&st.lock);
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
