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

#include "call_times.h"
#include "reader.h"

struct gt_str {
	const char *p;
	size_t len;
};

/*
 * One CALL, decoded. Only the fields fn records are set (format.h's GT_ARGS
 * tables name them); the others stay 0. dur_ns is 0 when not timed.
 */
struct gt_rec_call {
	uint8_t fn;
	uint8_t timed;	 /* dur_ns measured: always in 1.x, not always in 2.x */
	uint8_t sampled; /* timed as 1 in IMAGE timed_one_in calls (2.x) */
	int64_t dts;
	uint64_t dur_ns, stack;
	uint64_t size, nmemb, ptr, result, align, ret;
	uint64_t addr, len, prot, flags, offset;
	int64_t fd, sret; /* mmap's fd, munmap's ret */
	uint64_t old_addr, old_len, new_len, new_addr;
	struct gt_str path;
};

/*
 * A record as the block holds it: tag and body; for a CALL of a 2.x block,
 * whose fields lie in the columns, call instead (body NULL).
 */
struct gt_rec {
	uint8_t tag;
	const uint8_t *body;
	size_t len;
	uint64_t offset; /* of the record's entry within the decompressed block */
	const struct gt_rec_call *call;
};

/* Walks a block's records; in a 2.x block, its columns side by side. */
struct gt_rec_iter {
	const struct gt_block *b;
	size_t pos; /* in the records (1.x: the block; 2.x: GT_COL_RECORDS) */
	uint32_t count;
	int columns;			    /* a 2.x or later block */
	int addr_refs;			    /* 3.x on: addresses coded ("Addresses") */
	int returned_column;		    /* 4.x: blocks returned coded in GT_COL_RETURNED */
	struct gt_cursor col[GT_COL_COUNT]; /* 2.x: each column's unread bytes */
	struct gt_call_times times;	    /* 2.x: the CALLs' times */
	size_t records_start;		    /* 2.x: GT_COL_RECORDS' offset in the block */
	struct gt_rec_call call;	    /* the CALL gt_rec_next decoded last */
	/* 3.x on: the block's addresses so far. Last: gt_rec_iter_init
	 * clears what comes before it and resets it (200 KB, which a block
	 * reads only where it has written: format.h, gt_addr_decode). */
	struct gt_addr_history addrs;
};

/* Dies if a 2.x block's column directory does not fit the block. */
void gt_rec_iter_init(struct gt_rec_iter *it, const struct gt_block *b);

/*
 * Returns 1 and the next record, 0 at the end of the block. Dies if a
 * record runs past the block, a column ends early or has bytes left over,
 * or the count disagrees with the header.
 */
int gt_rec_next(struct gt_rec_iter *it, struct gt_rec *rec);

/*
 * A decoded body of each record kind but CALL, with the fields its
 * GT_FIELDS_<NAME> table lists: struct gt_rec_<name>. Numbers are
 * uint64_t (S: int64_t), strings point into the block, a COUNT is a size_t
 * and its list an array that the struct gt_record holding it owns.
 */
#define GT_FIELD_TYPE_U(field)		 uint64_t field;
#define GT_FIELD_TYPE_P(field)		 uint64_t field;
#define GT_FIELD_TYPE_X(field)		 uint64_t field;
#define GT_FIELD_TYPE_S(field)		 int64_t field;
#define GT_FIELD_TYPE_T(field)		 struct gt_str field;
#define GT_FIELD_TYPE_ID(field)		 uint64_t field;
#define GT_FIELD_TYPE_BYTES(field)	 struct gt_str field;
#define GT_FIELD_TYPE_COUNT(field)	 size_t field;
#define GT_FIELD_TYPE_STRS(field)	 struct gt_str *field;
#define GT_FIELD_TYPE_IPS(field)	 uint64_t *field;
#define GT_FIELD_TYPE_LATER(field)	 uint64_t field;
#define GT_FIELD_TYPE_ORIGIN(field)	 uint64_t field;
#define GT_FIELD_TYPE_END_REASON(field)	 uint64_t field;
#define GT_FIELD_TYPE_DROP_REASON(field) uint64_t field;
#define GT_FIELD_TYPE(field, enc, label) GT_FIELD_TYPE_##enc(field)
#define GT_RECORD_STRUCT(NAME, value, name)                                                        \
	struct gt_rec_##name {                                                                     \
		GT_FIELDS_##NAME(GT_FIELD_TYPE)                                                    \
	};
GT_FIELD_RECORDS(GT_RECORD_STRUCT)
#undef GT_RECORD_STRUCT

/* A record, decoded. */
struct gt_record {
	struct gt_rec raw;
	int known;	/* 0: a tag, or a CALL's function, this reader does not know */
	void *lists[4]; /* the arrays of its STRS and IPS fields */
	size_t nlists;
	union {
#define GT_RECORD_MEMBER(NAME, value, name) struct gt_rec_##name name;
		GT_RECORDS(GT_RECORD_MEMBER)
#undef GT_RECORD_MEMBER
	} u;
};

/*
 * Decodes raw into out (known = 0, nothing else set, for what this reader
 * does not know: the caller skips it). `b` is the block, for error
 * messages. Release out when done with it.
 */
void gt_decode_record(const struct gt_block *b, const struct gt_rec *raw, struct gt_record *out);
/* Frees the lists a decoded record holds. */
void gt_record_release(struct gt_record *r);

/* "IMAGE", "CALL", …; NULL for a tag this reader does not know. */
const char *gt_rec_tag_name(uint8_t tag);

#endif /* GT_RECORDS_H */
