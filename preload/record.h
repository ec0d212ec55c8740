/*
 * The shape every recording hook shares: time the real call, then append a
 * CALL with its arguments, keeping errno as the real call left it.
 */
#ifndef GT_RECORD_H
#define GT_RECORD_H

#include "internal.h"

#include <errno.h>
#include <stdlib.h>

/* Encodes up to four unsigned arguments and appends the CALL. Guard held. */
static inline void gt_record(enum gt_fn fn, uint64_t t0, uint64_t t1, int nargs, uint64_t a0,
			     uint64_t a1, uint64_t a2, uint64_t a3)
{
	const uint64_t in[4] = {a0, a1, a2, a3};
	uint8_t args[4 * GT_UV_MAX];
	uint8_t *p = args;
	int saved_errno = errno;
	for (int i = 0; i < nargs; i++)
		p = gt_put_uv(p, in[i]);
	gt_stream_call(fn, t0, t1 - t0, args, (size_t)(p - args), NULL);
	errno = saved_errno;
}

#define GT_U(x) ((uint64_t)(uintptr_t)(x))

#endif /* GT_RECORD_H */
