/*
 * Linux interposition: hooks are exported under the libc names (see
 * interpose.h) and LD_PRELOAD makes the dynamic linker bind the program's
 * calls to them. The real functions are the next definitions in search
 * order, found with dlsym(RTLD_NEXT).
 */
#include "interpose.h"
#include "tracer.h"

#include <dlfcn.h>

#define GT_HOOK(ret, name, params) ret(*gt_real_##name) params;
#include "hooks.def"

/* 0: not yet, 1: a thread is resolving, 2: done. */
static int resolve_state;

void gt_resolve_real(void)
{
	int expected = 0;
	if (!__atomic_compare_exchange_n(&resolve_state, &expected, 1, 0, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE))
		return; /* done, or in progress: the caller falls back to the arena */

	int saved_guard = gt_in_tracer;
	gt_in_tracer = 1; /* dlsym's own allocations must not be traced */
			  /*
			   * Store each pointer as soon as it is known: dlsym may call calloc,
			   * and the hooks use whatever real function is already there.
			   */
#define GT_HOOK(ret, name, params)                                                                 \
	__atomic_store_n(&gt_real_##name, (ret(*) params)dlsym(RTLD_NEXT, #name), __ATOMIC_RELEASE);
#include "hooks.def"
	gt_in_tracer = saved_guard;
	__atomic_store_n(&resolve_state, 2, __ATOMIC_RELEASE);
}
