/*
 * Unit test: the decoding thread (analyzer/read/decoder.c) hands over the
 * same records, block by block, as decoding in line does, with the blocks'
 * bytes still valid while their records are used; and so does its fallback
 * when no thread can be started (pthread_create wrapped to fail). The
 * traces together must hold calls of the aligned functions (known_calls'
 * trace does), whose align the 64-byte form would lose.
 * Usage: test_decoder TRACE...
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "../check.h"
#include "decoder.h"

static int refuse_threads;
/* Over all traces: what the samples must span to test anything. */
static size_t total_blocks, total_records, total_heap_calls, total_aligned;

int __real_pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*fn)(void *), void *arg);
int __wrap_pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*fn)(void *), void *arg)
{
	return refuse_threads ? EAGAIN : __real_pthread_create(t, a, fn, arg);
}

static int same_str(struct gt_str a, struct gt_str b)
{
	return a.len == b.len && memcmp(a.p, b.p, a.len) == 0;
}

static int same_call(const struct gt_rec_call *a, const struct gt_rec_call *b)
{
	return a->fn == b->fn && a->timed == b->timed && a->sampled == b->sampled &&
	       a->dts == b->dts && a->dur_ns == b->dur_ns && a->stack == b->stack &&
	       a->size == b->size && a->nmemb == b->nmemb && a->ptr == b->ptr &&
	       a->result == b->result && a->align == b->align && a->ret == b->ret &&
	       a->addr == b->addr && a->len == b->len && a->prot == b->prot &&
	       a->flags == b->flags && a->offset == b->offset && a->fd == b->fd &&
	       a->sret == b->sret && a->old_addr == b->old_addr && a->old_len == b->old_len &&
	       a->new_len == b->new_len && a->new_addr == b->new_addr && same_str(a->path, b->path);
}

/* What the model reads of a record: the same in both, strings by content. */
static int same_record(const struct gt_record *a, const struct gt_record *b)
{
	if (a->raw.tag != b->raw.tag || a->known != b->known)
		return 0;
	if (!a->known)
		return 1;
	switch ((enum gt_record_tag)a->raw.tag) {
	case GT_REC_CALL:
		return same_call(&a->u.call, &b->u.call);
	case GT_REC_MODULE:
		return a->u.module.base == b->u.module.base &&
		       same_str(a->u.module.path, b->u.module.path) &&
		       same_str(a->u.module.build_id, b->u.module.build_id);
	case GT_REC_STACK:
		return a->u.stack.id == b->u.stack.id && a->u.stack.depth == b->u.stack.depth &&
		       memcmp(a->u.stack.ips, b->u.stack.ips,
			      a->u.stack.depth * sizeof(*a->u.stack.ips)) == 0;
	case GT_REC_IMAGE:
		return a->u.image.pid == b->u.image.pid && same_str(a->u.image.exe, b->u.image.exe);
	default:
		return a->raw.offset == b->raw.offset;
	}
}

/* The decoder's records against gt_reader_next and gt_rec_next's, in lockstep. */
static void compare(const char *path)
{
	struct gt_reader *r = gt_reader_open(path);
	struct gt_decoder *d = gt_decoder_open(path);
	struct gt_block b;
	struct gt_rec_iter *it = malloc(sizeof(*it));
	struct gt_record want = {0};
	const struct gt_batch *batch;
	size_t blocks = 0, records = 0, in_block = 0, heap_calls = 0;
	int open = 0;
	while (gt_decoder_next(d, &batch)) {
		if (batch->first) {
			CHECK(!open);
			CHECK(batch->n == 0);
			CHECK(gt_reader_next(r, &b));
			CHECK(batch->b->offset == b.offset);
			gt_rec_iter_init(it, &b);
			open = 1;
			blocks++;
			in_block = 0;
		}
		CHECK(open);
		struct gt_batch_cursor c;
		gt_batch_cursor_init(&c);
		for (const struct gt_record *got; (got = gt_batch_record(batch, &c));) {
			struct gt_rec raw;
			gt_record_release(&want);
			CHECK(gt_rec_next(it, &raw));
			gt_decode_record(&b, &raw, &want);
			if (!same_record(got, &want)) {
				fprintf(stderr,
					"%s: record %zu of the block at offset %llu differs\n",
					path, in_block, (unsigned long long)b.offset);
				check_failures++;
			}
			heap_calls += got == &c.call;
			total_aligned += want.raw.tag == GT_REC_CALL && want.u.call.align;
			records++;
			in_block++;
		}
		if (batch->last) {
			struct gt_rec raw;
			CHECK(!gt_rec_next(it, &raw));
			open = 0;
		}
		if (check_failures)
			break;
	}
	CHECK(!open);
	CHECK(!gt_reader_next(r, &b));
	CHECK(gt_decoder_torn(d) == gt_reader_torn(r));
	total_blocks += blocks;
	total_records += records;
	total_heap_calls += heap_calls;
	fprintf(stderr, "%s (%s): %zu blocks, %zu records, %zu as heap calls\n", path,
		refuse_threads ? "in line" : "threaded", blocks, records, heap_calls);
	gt_record_release(&want);
	free(it);
	gt_decoder_close(d);
	gt_reader_close(r);
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		refuse_threads = 0;
		compare(argv[i]);
		refuse_threads = 1;
		compare(argv[i]);
	}
	/* Blocks, batches, both kinds of hand-over, and the aligned calls' fields. */
	CHECK(total_blocks > 2);
	CHECK(total_records > 2 * 2048);
	CHECK(total_heap_calls > 0 && total_heap_calls < total_records);
	CHECK(total_aligned > 0);
	return check_result("decoder");
}
