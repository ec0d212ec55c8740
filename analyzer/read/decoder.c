/*
 * Decoding on a second thread (decoder.h). The decoding thread fills a
 * ring of entries, each a batch or a message, and the caller takes them in
 * order. A block's bytes stay in one of GT_DECODER_BLOCKS buffers until
 * the caller is done with its last batch: records point into them.
 */
#include "decoder.h"

#include <pthread.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
/* hand_over's non-temporal stores: x86-64 only (on i386 the struct's
 * int64_t fields are 4-byte aligned). */
#if defined(__SSE2__) && defined(__x86_64__)
#define GT_STREAM_STORES 1
#include <emmintrin.h>
#endif

#include "die.h"

#define GT_DECODER_BLOCKS 2 /* one being applied, one being decoded */
/*
 * Entries in the ring, records per batch (128 KiB of calls). Each batch
 * handed over costs a wake-up: with whole records in batches of 512 the
 * report was slower than decoding in line.
 */
#define GT_DECODER_BATCHES 8
#define GT_DECODER_RECORDS 2048
#define GT_WHOLE	   GT_FN_COUNT /* gt_heap_call.fn: see the batch's whole records */

struct entry {
	struct gt_batch batch;
	size_t nwhole; /* records in batch.whole */
	int has_lists; /* one of them owns lists: release them */
	int is_message, fatal;
	char *text; /* a message's; NULL if it could not be formatted */
};

struct block_buf {
	struct gt_block b;
	uint64_t end; /* the reader's position after it */
	uint8_t *raw;
	size_t cap;
	uint64_t done_after; /* free once this many entries are consumed */
};

struct gt_decoder {
	struct gt_reader *r;
	pthread_t thread;
	int threaded, joined;
	pthread_mutex_t lock;
	pthread_cond_t filled; /* the caller waits on it for entries */
	pthread_cond_t room;   /* the decoding waits on it for consumed entries */
	struct entry ring[GT_DECODER_BATCHES];
	/* Under lock: entries queued, entries the caller is done with. */
	uint64_t produced, consumed;
	uint64_t room_at; /* the decoding waits for this many consumed; UINT64_MAX: it does not */
	int ended;	  /* the decoding queued its last entry */
	int closing;	  /* gt_decoder_close: the decoding stops */
	int holding;	  /* the caller holds entry `consumed` */

	/* The decoding's own. */
	struct block_buf blocks[GT_DECODER_BLOCKS];
	uint64_t nblocks;
	struct block_buf *cur; /* the block being decoded */
	struct gt_rec_iter it; /* over cur's records */
	struct entry *filling; /* the entry being filled, not queued yet */
	jmp_buf stop;	       /* back to decode(): a fatal message or closing */
};

static void release_entry(struct entry *e)
{
	/* Most batches own nothing: their records stay in the other thread's cache. */
	for (size_t i = 0; e->has_lists && i < e->nwhole; i++)
		gt_record_release(&e->batch.whole[i]);
	e->nwhole = 0;
	e->has_lists = 0;
	e->batch.n = 0;
	free(e->text);
	e->text = NULL;
	e->is_message = 0;
}

/* Under lock: waits until the caller has consumed n entries or closes. */
static void sleep_until_consumed(struct gt_decoder *d, uint64_t n)
{
	while (d->consumed < n && !d->closing) {
		d->room_at = n;
		pthread_cond_wait(&d->room, &d->lock);
	}
	d->room_at = UINT64_MAX;
}

/* Waits until the caller has consumed n entries; 0 if closing. */
static int wait_consumed(struct gt_decoder *d, uint64_t n)
{
	pthread_mutex_lock(&d->lock);
	sleep_until_consumed(d, n);
	int ok = !d->closing;
	pthread_mutex_unlock(&d->lock);
	return ok;
}

/*
 * The next free entry of the ring, emptied; NULL if closing. A full ring
 * is waited on until half of it is free: a wake-up per batch cost the
 * caller's thread a system call each (4% of the report's time).
 */
static struct entry *next_free(struct gt_decoder *d)
{
	pthread_mutex_lock(&d->lock);
	if (d->produced - d->consumed == GT_DECODER_BATCHES)
		sleep_until_consumed(d, d->produced - GT_DECODER_BATCHES / 2);
	struct entry *e = d->closing ? NULL : &d->ring[d->produced % GT_DECODER_BATCHES];
	pthread_mutex_unlock(&d->lock);
	if (e)
		release_entry(e);
	return e;
}

static void queue(struct gt_decoder *d)
{
	pthread_mutex_lock(&d->lock);
	d->produced++;
	pthread_cond_signal(&d->filled);
	pthread_mutex_unlock(&d->lock);
}

/* Starts filling a batch of the current block; 0 if closing. */
static int start_batch(struct gt_decoder *d)
{
	d->filling = next_free(d);
	if (!d->filling)
		return 0;
	struct gt_batch *batch = &d->filling->batch;
	*batch = (struct gt_batch){
		.b = &d->cur->b, .end = d->cur->end, .calls = batch->calls, .whole = batch->whole};
	return 1;
}

static void queue_filling(struct gt_decoder *d)
{
#ifdef GT_STREAM_STORES
	_mm_sfence(); /* hand_over's stores, before the batch is seen */
#endif
	d->filling = NULL;
	queue(d);
}

/*
 * The decoding thread's messages, in their place: the records decoded
 * before one go first. Records give only errors (records.c warns of
 * nothing), after which the thread ends; the reader warns between blocks.
 */
static void queue_message(void *ctx, int fatal, char *text)
{
	struct gt_decoder *d = ctx;
	if (d->filling) {
		if (!fatal)
			BUG("a warning while decoding records: its batch would be split");
		queue_filling(d);
	}
	struct entry *e = next_free(d);
	if (e) {
		e->is_message = 1;
		e->fatal = fatal;
		e->text = text;
		queue(d);
	} else {
		free(text);
	}
	if (fatal || !e)
		longjmp(d->stop, 1); /* a decoder frees what it took before it dies */
}

/*
 * Calls the 64-byte form holds every field of: the malloc family but the
 * aligned functions (their align, and posix_memalign's ret, go whole).
 */
static int fits_heap_call(unsigned fn)
{
	return gt_fn_is_heap(fn) && fn != GT_FN_POSIX_MEMALIGN && fn != GT_FN_ALIGNED_ALLOC &&
	       fn != GT_FN_MEMALIGN;
}

/*
 * Writes c's line of the batch. The caller's thread reads these lines on
 * the other CPU, so plain stores would first fetch each line back from
 * that CPU's cache, a stall per call (a quarter of the decoding thread's
 * time). Non-temporal stores write the whole line without reading it:
 * 0.50 s to 0.35 s for the report of `git log --raw --all`
 * (docs/capture-cost.md, section 0.15). queue_filling fences them.
 */
static void hand_over(struct gt_heap_call *to, const struct gt_rec_call *c)
{
#ifdef GT_STREAM_STORES
	/* The struct's four 16-byte quarters, each built in registers: a vector
	 * load of fields just stored one by one would stall as well. */
	_Static_assert(offsetof(struct gt_heap_call, timed) == 1 &&
			       offsetof(struct gt_heap_call, sampled) == 2 &&
			       offsetof(struct gt_heap_call, dts) == 8 &&
			       offsetof(struct gt_heap_call, stack) == 24 &&
			       offsetof(struct gt_heap_call, nmemb) == 40 &&
			       offsetof(struct gt_heap_call, result) == 56,
		       "hand_over's quarters follow struct gt_heap_call");
	uint64_t head = c->fn | (uint64_t)c->timed << 8 | (uint64_t)c->sampled << 16;
	__m128i *line = (__m128i *)to;
	_mm_stream_si128(line, _mm_set_epi64x(c->dts, (long long)head));
	_mm_stream_si128(line + 1, _mm_set_epi64x((long long)c->stack, (long long)c->dur_ns));
	_mm_stream_si128(line + 2, _mm_set_epi64x((long long)c->nmemb, (long long)c->size));
	_mm_stream_si128(line + 3, _mm_set_epi64x((long long)c->result, (long long)c->ptr));
#else
	*to = (struct gt_heap_call){c->fn,    c->timed, c->sampled, c->dts, c->dur_ns,
				    c->stack, c->size,	c->nmemb,   c->ptr, c->result};
#endif
}

/* Queues the next batch, reading the next block when one is done; 0 at the end. */
static int produce(struct gt_decoder *d)
{
	if (!d->cur) {
		struct block_buf *bb = &d->blocks[d->nblocks % GT_DECODER_BLOCKS];
		if (!wait_consumed(d, bb->done_after) ||
		    !gt_reader_next_into(d->r, &bb->b, &bb->raw, &bb->cap))
			return 0;
		bb->end = gt_reader_pos(d->r);
		d->nblocks++;
		d->cur = bb;
		if (!start_batch(d))
			return 0;
		d->filling->batch.first = 1;
		queue_filling(d);
		/* After the first batch: an error here comes after the block's begin. */
		gt_rec_iter_init(&d->it, &bb->b);
		return 1;
	}
	if (!start_batch(d))
		return 0;
	struct gt_rec raw;
	while (d->filling->batch.n < GT_DECODER_RECORDS) {
		struct gt_batch *batch = &d->filling->batch;
		if (!gt_rec_next(&d->it, &raw)) {
			batch->last = 1;
			pthread_mutex_lock(&d->lock);
			d->cur->done_after = d->produced + 1;
			pthread_mutex_unlock(&d->lock);
			d->cur = NULL;
			break;
		}
		if (raw.call && fits_heap_call(raw.call->fn)) {
			hand_over(&batch->calls[batch->n++], raw.call);
			continue;
		}
		/* Counted once whole: an error queues what is decoded so far. */
		struct entry *e = d->filling;
		gt_decode_record(batch->b, &raw, &batch->whole[e->nwhole]);
		e->has_lists |= batch->whole[e->nwhole++].nlists > 0;
		batch->calls[batch->n++].fn = GT_WHOLE;
	}
	queue_filling(d);
	return 1;
}

static void *decode(void *arg)
{
	struct gt_decoder *d = arg;
	gt_set_thread_message_sink(queue_message, d);
	if (!setjmp(d->stop))
		while (produce(d))
			;
	pthread_mutex_lock(&d->lock);
	d->ended = 1;
	pthread_cond_signal(&d->filled);
	pthread_mutex_unlock(&d->lock);
	return NULL;
}

static void *aligned_calloc(size_t n, size_t size)
{
	void *p = aligned_alloc(64, n * size); /* n * size: a multiple of 64 */
	if (!p)
		gt_die("out of memory (%zu × %zu bytes)", n, size);
	return memset(p, 0, n * size);
}

struct gt_decoder *gt_decoder_open(const char *path)
{
	struct gt_decoder *d = gt_xcalloc(1, sizeof(*d));
	d->r = gt_reader_open(path);
	for (int i = 0; i < GT_DECODER_BATCHES; i++) {
		d->ring[i].batch.calls =
			aligned_calloc(GT_DECODER_RECORDS, sizeof(struct gt_heap_call));
		d->ring[i].batch.whole = gt_xcalloc(GT_DECODER_RECORDS, sizeof(struct gt_record));
	}
	pthread_mutex_init(&d->lock, NULL);
	pthread_cond_init(&d->filled, NULL);
	pthread_cond_init(&d->room, NULL);
	d->room_at = UINT64_MAX;
	d->threaded = pthread_create(&d->thread, NULL, decode, d) == 0;
	return d;
}

/* Takes the next entry the thread queued; NULL at the end. */
static struct entry *take(struct gt_decoder *d)
{
	pthread_mutex_lock(&d->lock);
	if (d->holding) {
		d->consumed++;
		d->holding = 0;
		if (d->consumed >= d->room_at)
			pthread_cond_signal(&d->room);
	}
	while (d->consumed == d->produced && !d->ended)
		pthread_cond_wait(&d->filled, &d->lock);
	struct entry *e = NULL;
	if (d->consumed < d->produced) {
		e = &d->ring[d->consumed % GT_DECODER_BATCHES];
		d->holding = 1;
	}
	pthread_mutex_unlock(&d->lock);
	return e;
}

/* Without a thread: decodes the next batch here and takes it. */
static struct entry *take_inline(struct gt_decoder *d)
{
	d->consumed = d->produced;
	if (!produce(d))
		return NULL;
	return &d->ring[d->consumed % GT_DECODER_BATCHES];
}

int gt_decoder_next(struct gt_decoder *d, const struct gt_batch **out)
{
	for (;;) {
		struct entry *e = d->threaded ? take(d) : take_inline(d);
		if (!e)
			return 0;
		if (!e->is_message) {
			*out = &e->batch;
			return 1;
		}
		if (e->fatal) {
			/* The thread ended after queuing this: joined here, a die
			 * hook's caller (the fuzzer) can still close the decoder. */
			pthread_join(d->thread, NULL);
			d->joined = 1;
			gt_die("%s", e->text ? e->text : "out of memory (a message)");
		}
		if (e->text)
			gt_warnf("%s", e->text);
		else
			gt_warnf("a warning was lost: out of memory");
	}
}

int gt_decoder_torn(const struct gt_decoder *d)
{
	return gt_reader_torn(d->r);
}

uint64_t gt_decoder_size(const struct gt_decoder *d)
{
	return gt_reader_size(d->r);
}

void gt_decoder_close(struct gt_decoder *d)
{
	if (!d)
		return;
	if (d->threaded && !d->joined) {
		pthread_mutex_lock(&d->lock);
		d->closing = 1;
		pthread_cond_signal(&d->room);
		pthread_mutex_unlock(&d->lock);
		pthread_join(d->thread, NULL);
	}
	for (int i = 0; i < GT_DECODER_BATCHES; i++) {
		release_entry(&d->ring[i]);
		free(d->ring[i].batch.calls);
		free(d->ring[i].batch.whole);
	}
	for (int i = 0; i < GT_DECODER_BLOCKS; i++)
		free(d->blocks[i].raw);
	pthread_mutex_destroy(&d->lock);
	pthread_cond_destroy(&d->filled);
	pthread_cond_destroy(&d->room);
	gt_reader_close(d->r);
	free(d);
}

void gt_batch_cursor_init(struct gt_batch_cursor *c)
{
	memset(c, 0, sizeof(*c));
	c->call.raw.tag = GT_REC_CALL;
	c->call.known = 1;
	c->call.u.call.path.p = "";
}

const struct gt_record *gt_batch_record(const struct gt_batch *b, struct gt_batch_cursor *c)
{
	if (c->i == b->n)
		return NULL;
	const struct gt_heap_call *h = &b->calls[c->i++];
	if (h->fn == GT_WHOLE)
		return &b->whole[c->whole++];
	/* Only calls fits_heap_call takes come here: every field they have is set. */
	struct gt_rec_call *call = &c->call.u.call;
	call->fn = h->fn;
	call->timed = h->timed;
	call->sampled = h->sampled;
	call->dts = h->dts;
	call->dur_ns = h->dur_ns;
	call->stack = h->stack;
	call->size = h->size;
	call->nmemb = h->nmemb;
	call->ptr = h->ptr;
	call->result = h->result;
	return &c->call;
}
