/*
 * The shape every recording hook shares: time the real call, then append a
 * CALL with its arguments (encoded as format.h's GT_ARGS tables say),
 * keeping errno as the real call left it.
 */
#ifndef GT_RECORD_H
#define GT_RECORD_H

#include "stream.h"
#include "gittrace/format.h"

#include <errno.h>
#include <stdlib.h>

/*
 * Appends the CALL of function fn (its name in GT_FNS: malloc, free, ...)
 * that started at t0 and ended at t1, with its arguments in the order
 * GT_ARGS_<FN> (format.h) lists them. Guard held; errno kept.
 */
#define GT_RECORD(fn, t0, t1, ...)                                                                 \
	do {                                                                                       \
		uint64_t gt_t1_ = (t1);                                                            \
		int gt_errno_ = errno;                                                             \
		uint8_t gt_args_[GT_CALL_ARGS_MAX];                                                \
		uint8_t *gt_end_ = gt_encode_##fn(gt_args_, __VA_ARGS__);                          \
		gt_stream_call((enum gt_fn)gt_fn_of_##fn, (t0), gt_t1_ - (t0), gt_args_,           \
			       (size_t)(gt_end_ - gt_args_), NULL);                                \
		errno = gt_errno_;                                                                 \
	} while (0)

/* enum gt_fn by function name, for GT_RECORD. */
enum {
#define GT_FN_OF(NAME, value, name) gt_fn_of_##name = GT_FN_##NAME,
	GT_FNS(GT_FN_OF)
#undef GT_FN_OF
};

#define GT_U(x) ((uint64_t)(uintptr_t)(x))

#endif /* GT_RECORD_H */
