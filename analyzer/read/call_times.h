/*
 * The times of a block's CALLs as the model takes them: the dts each
 * carries, except in a 3.1 block of one thread, where untimed calls carry
 * none and are placed evenly between the timed calls around them
 * (format.h, CALL). records.c asks for each call's dts here.
 */
#ifndef GT_CALL_TIMES_H
#define GT_CALL_TIMES_H

#include <stdint.h>

#include "reader.h"

struct gt_call_times {
	int between;	  /* untimed calls are placed between timed ones */
	int untimed_dts;  /* untimed calls have a GT_COL_TIME entry (all but 4.x "between") */
	uint32_t shift;	  /* header.time_shift */
	uint64_t written; /* ns from base_ns: the previous timed call's start */
	uint64_t given;	  /* ns from base_ns: the time given to the previous call */
	uint64_t left;	  /* ns from base_ns: the previous timed call's end */
	uint64_t right;	  /* ns from base_ns: the next timed call's start */
	double step;	  /* ns between two of the untimed calls between them */
	uint32_t run;	  /* untimed calls between the two */
	uint32_t placed;  /* of them, given a time so far */
};

void gt_call_times_init(struct gt_call_times *t, const struct gt_block *b);

/* Whether a call has an entry in GT_COL_TIME (else it carries 0 units). */
static inline int gt_call_times_has_dts(const struct gt_call_times *t, int timed)
{
	return timed || t->untimed_dts;
}

/*
 * The dts to give a call that carries units (its GT_COL_TIME entry) and
 * lasted dur_ns if timed. For an untimed call placed between timed ones,
 * records and times are the block's GT_COL_RECORDS and GT_COL_TIME right
 * after this call's entries: the next timed call is looked for there, on
 * copies made only then.
 */
int64_t gt_call_times_dts(struct gt_call_times *t, int timed, int64_t units, uint64_t dur_ns,
			  const struct gt_cursor *records, const struct gt_cursor *times);

#endif /* GT_CALL_TIMES_H */
