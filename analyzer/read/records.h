/*
 * Splits a block's raw bytes into records and decodes the record bodies
 * defined by format.h into plain structs. Strings point into the block
 * (valid until the reader's next block). Decoders accept trailing bytes
 * (a future MINOR may append fields) and die with the record's offset when
 * a body is too short, after freeing what they allocated: a die hook
 * (die.h) may carry on past gt_die().
 */
#ifndef GT_RECORDS_H
#define GT_RECORDS_H

#include <stddef.h>
#include <stdint.h>

#include "reader.h"

struct gt_str {
	const char *p;
	size_t len;
};

struct gt_rec {
	uint8_t tag;
	const uint8_t *body;
	size_t len;
	uint64_t offset; /* of the tag byte within the decompressed block */
};

struct gt_rec_iter {
	const struct gt_block *b;
	size_t pos;
	uint32_t count;
};

void gt_rec_iter_init(struct gt_rec_iter *it, const struct gt_block *b);

/*
 * Returns 1 and the next record, 0 at the end of the block. Dies if a
 * record runs past the block or the count disagrees with the header.
 */
int gt_rec_next(struct gt_rec_iter *it, struct gt_rec *rec);

struct gt_rec_image {
	uint64_t pid, ppid, start_realtime_ns, start_mono_ns, origin, parent_image_id;
	uint64_t pointer_bits, page_size, stack_depth;
	uint64_t clock_overhead_ns; /* since 1.1; 0 before */
	struct gt_str exe, cwd;
	size_t argc, envc;
	struct gt_str *argv, *env; /* gt_xmalloc'ed arrays; free both */
};

struct gt_module_rec {
	uint64_t base, size;
	struct gt_str path, build_id;
};

struct gt_rec_thread {
	uint64_t serial, tid;
};

struct gt_rec_stack {
	uint64_t id;
	size_t depth;
	uint64_t *ips; /* gt_xmalloc'ed; free it */
};

/*
 * One CALL. Only the fields fn records are set (format.h's GT_ARGS
 * tables name them); the others stay 0.
 */
struct gt_rec_call {
	uint8_t fn;
	int64_t dts;
	uint64_t dur_ns, stack;
	uint64_t size, nmemb, ptr, result, align, ret;
	uint64_t addr, len, prot, flags, offset;
	int64_t fd, sret; /* mmap's fd, munmap's ret */
	uint64_t old_addr, old_len, new_len, new_addr;
	struct gt_str path;
};

struct gt_rec_end {
	uint64_t reason;
	int64_t status;
	uint64_t end_realtime_ns, end_mono_ns, user_ns, system_ns;
	uint64_t maxrss_kib, minflt, majflt, calls, dropped, threads;
	uint64_t tracer_ns; /* since 1.1; 0 before */
};

struct gt_rec_exec_failed {
	int64_t err;
};

struct gt_rec_dropped {
	uint64_t count, reason;
};

/* A thread's rusage right after the CALL it follows (format 1.2). */
struct gt_rec_usage {
	uint64_t minflt, majflt, user_ns, system_ns;
};

/*
 * Decoders. `where` is the block, for error messages. gt_decode_call
 * returns 0 (and decodes nothing) for a function number it does not know,
 * so the caller can skip the record like an unknown tag.
 */
void gt_decode_image(const struct gt_block *b, const struct gt_rec *r, struct gt_rec_image *out);
void gt_decode_module(const struct gt_block *b, const struct gt_rec *r, struct gt_module_rec *out);
void gt_decode_thread(const struct gt_block *b, const struct gt_rec *r, struct gt_rec_thread *out);
void gt_decode_stack(const struct gt_block *b, const struct gt_rec *r, struct gt_rec_stack *out);
int gt_decode_call(const struct gt_block *b, const struct gt_rec *r, struct gt_rec_call *out);
void gt_decode_end(const struct gt_block *b, const struct gt_rec *r, struct gt_rec_end *out);
void gt_decode_exec_failed(const struct gt_block *b, const struct gt_rec *r,
			   struct gt_rec_exec_failed *out);
void gt_decode_dropped(const struct gt_block *b, const struct gt_rec *r,
		       struct gt_rec_dropped *out);
void gt_decode_usage(const struct gt_block *b, const struct gt_rec *r, struct gt_rec_usage *out);

/* "IMAGE", "CALL", …; NULL for a tag this reader does not know. */
const char *gt_rec_tag_name(uint8_t tag);

#endif /* GT_RECORDS_H */
