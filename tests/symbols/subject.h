/*
 * The code the symbolizer test looks up: functions of a known shape (a
 * noinline function with an always_inline helper that calls a noinline
 * leaf) that record, at run time, the return addresses they saw and the
 * source lines of their calls, so that the test checks the symbolizer
 * against facts instead of hard-coded numbers.
 */
#ifndef GT_SUBJECT_H
#define GT_SUBJECT_H

struct gt_subject_marks {
	void *leaf_ra;	      /* return address seen by the leaf */
	int leaf_call_line;   /* line of the leaf call in the inlined helper */
	int helper_call_line; /* line of the helper call in gt_subject_outer */
	void *outer_ra;	      /* return address seen by gt_subject_outer */
};

extern struct gt_subject_marks gt_subject_marks;

/* Calls the inlined helper, which calls the leaf; fills gt_subject_marks
 * except what the caller records about its own call. */
void gt_subject_outer(void);

/* The address of a static, never-exported function named
 * "subject_hidden" (absent from .dynsym). */
void *gt_subject_hidden_address(void);

#endif /* GT_SUBJECT_H */
