/*
 * Code of a known shape for the symbolizer test (see subject.h). Built with
 * -g -O2 so that the inlining is real; every call that the test looks up
 * is written on the same line as the __LINE__ that records it.
 */
#include "subject.h"

struct gt_subject_marks gt_subject_marks;

/* noclone keeps GCC from renaming it to a specialized copy. */
__attribute__((noinline, noclone)) void *gt_subject_leaf(void)
{
	return __builtin_return_address(0);
}

static inline __attribute__((always_inline)) void *subject_helper(void)
{
	void *ra;
	/* The result is used after the call, so the call is not a tail call
	 * and its return address lies inside this inlined code. */
	gt_subject_marks.leaf_call_line = __LINE__, ra = gt_subject_leaf();
	__asm__ volatile("" : : "r"(ra) : "memory");
	return ra;
}

__attribute__((noinline, noclone)) void gt_subject_outer(void)
{
	gt_subject_marks.helper_call_line = __LINE__, gt_subject_marks.leaf_ra = subject_helper();
	gt_subject_marks.outer_ra = __builtin_return_address(0);
}

static __attribute__((noinline, noclone)) int subject_hidden(int x)
{
	__asm__ volatile("" : "+r"(x));
	return x * 3 + 1;
}

void *gt_subject_hidden_address(void)
{
	int (*volatile fn)(int) = subject_hidden;
	fn(1);
	return (void *)fn;
}
