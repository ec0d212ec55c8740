/*
 * Linux interposition: hooks are exported under the libc names (see
 * interpose.h) and LD_PRELOAD makes the dynamic linker bind the program's
 * calls to them. The real functions are the next definitions in search
 * order, found with dlsym(RTLD_NEXT).
 */
#include "interpose.h"
#include "tracer.h"

#include <dlfcn.h>
#include <unistd.h>

#define GT_HOOK(ret, name, params) ret(*gt_real_##name) params;
#include "hooks.def"

/* Whether the function at f lies in libc (the module of getpid, which no one interposes). */
static int in_libc(void (*f)(void))
{
	Dl_info fi, libc;
	return f && dladdr((void *)f, &fi) && dladdr((void *)getpid, &libc) &&
	       fi.dli_fbase == libc.dli_fbase;
}

/* Whether libc itself serves the allocations and maps (tracer.h, gt_real_call_guard). */
static int served_by_libc(void)
{
	return in_libc((void (*)(void))gt_real_malloc) && in_libc((void (*)(void))gt_real_free) &&
	       in_libc((void (*)(void))gt_real_realloc) && in_libc((void (*)(void))gt_real_mmap) &&
	       in_libc((void (*)(void))gt_real_munmap);
}

/* 0: not yet, 1: a thread is resolving, 2: done. */
static int resolve_state;

void gt_resolve_real(void)
{
	int expected = 0;
	if (!__atomic_compare_exchange_n(&resolve_state, &expected, 1, 0, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE))
		return; /* done, or in progress: the caller falls back to the arena */

	/*
	 * dlsym's own allocations are not the program's. Store each pointer
	 * as soon as it is known: dlsym may call calloc, and the hooks use
	 * whatever real function is already there.
	 */
	int saved_guard = gt_own_begin();
#define GT_HOOK(ret, name, params)                                                                 \
	__atomic_store_n(&gt_real_##name, (ret(*) params)dlsym(RTLD_NEXT, #name), __ATOMIC_RELEASE);
#include "hooks.def"
	gt_real_call_guard = served_by_libc() ? GT_GUARD_HOOK : GT_GUARD_OWN;
	gt_own_end(saved_guard);
	__atomic_store_n(&resolve_state, 2, __ATOMIC_RELEASE);
}
