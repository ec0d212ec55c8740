/*
 * Hooks of the malloc family. Each passes its arguments and result through
 * untouched and records the call when tracing is on. When a call cannot be
 * recorded (tracer off, or made by the tracer itself) it goes straight to
 * the real function, or to the bootstrap arena while dlsym is still
 * finding the real functions.
 */
#include "record.h"
#include "addr_refs.h"
#include "bootstrap.h"
#include "clock.h"
#include "interpose.h"
#include "lifecycle.h"
#include "unwind.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Looks up the real functions, unless a sanitizer's runtime may be starting (interpose.h). */
static void resolve_unless_starting(void)
{
	if (!gt_sanitizer_starting())
		gt_resolve_real();
}

/*
 * Memory before the real functions are known: the arena's, in whole units
 * of align (pvalloc's pages). Full while a sanitizer's runtime may be
 * starting, the runtime has started: the real functions are looked up, and
 * the caller takes them if they are there.
 */
static void *early_alloc(size_t size, size_t align)
{
	void *p = NULL;
	if (align <= 1 || size % align == 0)
		p = gt_arena_alloc(size, align);
	else if (size <= SIZE_MAX - align)
		p = gt_arena_alloc(size + align - size % align, align);
	if (!p && gt_sanitizer_starting())
		gt_resolve_real();
	return p;
}

/* The real call if its function is known (real), else early memory; real after a full arena. */
#define GT_REAL_OR_EARLY(real, call, size, align)                                                  \
	do {                                                                                       \
		if (!(real))                                                                       \
			resolve_unless_starting();                                                 \
		if (!(real)) {                                                                     \
			void *early_ = early_alloc(size, align);                                   \
			if (early_ || !(real))                                                     \
				return early_;                                                     \
		}                                                                                  \
		return call;                                                                       \
	} while (0)

static void *untraced_malloc(size_t size)
{
	GT_REAL_OR_EARLY(gt_real_malloc, gt_real_malloc(size), size, 0);
}

static void *untraced_calloc(size_t nmemb, size_t size)
{
	if (!gt_real_calloc)
		resolve_unless_starting();
	if (!gt_real_calloc && size && nmemb > SIZE_MAX / size)
		return NULL;
	GT_REAL_OR_EARLY(gt_real_calloc, gt_real_calloc(nmemb, size), nmemb * size, 0);
}

/* realloc of arena memory: move it into real memory, never free it. */
static void *realloc_from_arena(void *ptr, size_t size)
{
	void *p = GT_HOOK_NAME(malloc)(size);
	if (p) {
		size_t old = gt_arena_size(ptr);
		memcpy(p, ptr, old < size ? old : size);
	}
	return p;
}

/*
 * Arena blocks never get here (the hook moves them first), and no other
 * memory exists before the real functions are known: without them, ptr is
 * NULL and this is an allocation.
 */
static void *untraced_realloc(void *ptr, size_t size)
{
	GT_REAL_OR_EARLY(gt_real_realloc, gt_real_realloc(ptr, size), size, 0);
}

GT_EXPORT void *GT_HOOK_NAME(malloc)(size_t size)
{
	if (!gt_enter_call())
		return untraced_malloc(size);
	int timed = gt_stream_begin_call(GT_FN_MALLOC);
	uint64_t t0 = GT_TIMED_BEGIN(timed);
	gt_real_begin();
	void *r = gt_real_malloc(size);
	gt_real_end();
	GT_AGAIN_IF_OUT_OF_MEMORY(!r && errno == ENOMEM && gt_may_fit(size),
				  r = gt_real_malloc(size));
	GT_RECORD(malloc, timed, t0, GT_TIMED_END(timed), size, GT_U(r));
	gt_leave();
	return r;
}

GT_EXPORT void *GT_HOOK_NAME(calloc)(size_t nmemb, size_t size)
{
	if (!gt_enter_call())
		return untraced_calloc(nmemb, size);
	int timed = gt_stream_begin_call(GT_FN_CALLOC);
	uint64_t t0 = GT_TIMED_BEGIN(timed);
	gt_real_begin();
	void *r = gt_real_calloc(nmemb, size);
	gt_real_end();
	GT_AGAIN_IF_OUT_OF_MEMORY(
		!r && errno == ENOMEM &&
			(!size || (nmemb <= PTRDIFF_MAX / size && gt_may_fit(nmemb * size))),
		r = gt_real_calloc(nmemb, size));
	GT_RECORD(calloc, timed, t0, GT_TIMED_END(timed), nmemb, size, GT_U(r));
	gt_leave();
	return r;
}

GT_EXPORT void *GT_HOOK_NAME(realloc)(void *ptr, size_t size)
{
	if (ptr && gt_arena_owns(ptr))
		return realloc_from_arena(ptr, size);
	if (!gt_enter_call())
		return untraced_realloc(ptr, size);
	int timed = gt_stream_begin_call(GT_FN_REALLOC);
	gt_addr_refs_warm(GT_U(ptr));
	uint64_t t0 = GT_TIMED_BEGIN(timed);
	gt_real_begin();
	void *r = gt_real_realloc(ptr, size);
	gt_real_end();
	/* realloc(ptr, 0) returns NULL having freed ptr, whatever errno holds. */
	GT_AGAIN_IF_OUT_OF_MEMORY(!r && size && errno == ENOMEM && gt_may_fit(size),
				  r = gt_real_realloc(ptr, size));
	GT_RECORD(realloc, timed, t0, GT_TIMED_END(timed), GT_U(ptr), size, GT_U(r));
	gt_leave();
	return r;
}

/* reallocarray's answer when nmemb * size overflows. */
static void *overflowed(void)
{
	errno = ENOMEM;
	return NULL;
}

/*
 * glibc's reallocarray is an overflow check and a call of realloc through
 * its PLT, which would come back into our realloc hook (inside this one,
 * counted as dropped; untraced, a dropped call counted twice): the check
 * is made here, and realloc called, as glibc does. Where the program's
 * realloc is another's (gt_realloc_in_front), tracing is off, and that one
 * is called.
 */
GT_EXPORT void *GT_HOOK_NAME(reallocarray)(void *ptr, size_t nmemb, size_t size)
{
	int overflow = size && nmemb > SIZE_MAX / size;
	if (ptr && gt_arena_owns(ptr))
		return overflow ? overflowed() : realloc_from_arena(ptr, nmemb * size);
	void *(*front)(void *, size_t) = gt_realloc_in_front();
	if (front)
		return overflow ? overflowed() : front(ptr, nmemb * size);
	if (!gt_enter_call())
		return overflow ? overflowed() : untraced_realloc(ptr, nmemb * size);
	int timed = gt_stream_begin_call(GT_FN_REALLOCARRAY);
	gt_addr_refs_warm(GT_U(ptr));
	uint64_t t0 = GT_TIMED_BEGIN(timed);
	void *r = NULL;
	if (overflow) {
		overflowed();
	} else {
		gt_real_begin();
		r = gt_real_realloc(ptr, nmemb * size);
		gt_real_end();
		GT_AGAIN_IF_OUT_OF_MEMORY(!r && nmemb && size && errno == ENOMEM &&
						  gt_may_fit(nmemb * size),
					  r = gt_real_realloc(ptr, nmemb * size));
	}
	GT_RECORD(reallocarray, timed, t0, GT_TIMED_END(timed), GT_U(ptr), nmemb, size, GT_U(r));
	gt_leave();
	return r;
}

GT_EXPORT void GT_HOOK_NAME(free)(void *ptr)
{
	if (ptr && gt_arena_owns(ptr))
		return; /* bootstrap memory is never returned */
	if (gt_called_by_unwinder(__builtin_return_address(0)) || !gt_enter_call()) {
		if (!gt_real_free)
			resolve_unless_starting();
		if (gt_real_free)
			gt_real_free(ptr);
		return;
	}
	int timed = gt_stream_begin_call(GT_FN_FREE);
	gt_addr_refs_warm(GT_U(ptr));
	uint64_t t0 = timed ? gt_now_ns() : gt_stream_untimed_ns();
	gt_real_begin();
	gt_real_free(ptr);
	gt_real_end();
	GT_RECORD(free, timed, t0, timed ? gt_now_ns() : t0, GT_U(ptr));
	gt_leave();
}

GT_EXPORT int GT_HOOK_NAME(posix_memalign)(void **memptr, size_t alignment, size_t size)
{
	if (!gt_enter_call()) {
		if (!gt_real_posix_memalign)
			resolve_unless_starting();
		if (!gt_real_posix_memalign) {
			void *early = early_alloc(size, alignment);
			if (early || !gt_real_posix_memalign) {
				*memptr = early ? early : *memptr;
				return early ? 0 : ENOMEM;
			}
		}
		return gt_real_posix_memalign(memptr, alignment, size);
	}
	int timed = gt_stream_begin_call(GT_FN_POSIX_MEMALIGN);
	uint64_t t0 = GT_TIMED_BEGIN(timed);
	gt_real_begin();
	int ret = gt_real_posix_memalign(memptr, alignment, size);
	gt_real_end();
	GT_AGAIN_IF_OUT_OF_MEMORY(ret == ENOMEM && alignment <= PTRDIFF_MAX - size &&
					  gt_may_fit(size + alignment),
				  ret = gt_real_posix_memalign(memptr, alignment, size));
	GT_RECORD(posix_memalign, timed, t0, GT_TIMED_END(timed), alignment, size,
		  ret == 0 ? GT_U(*memptr) : 0, (uint64_t)ret);
	gt_leave();
	return ret;
}

/*
 * aligned_alloc, memalign, valloc and pvalloc share one shape: align is the
 * alignment early memory gets; the recorded arguments (the trailing macro
 * arguments) may name the result r.
 */
#define GT_ALIGNED_HOOK(name, params, call_args, align, ...)                                       \
	GT_EXPORT void *GT_HOOK_NAME(name) params                                                  \
	{                                                                                          \
		if (!gt_enter_call())                                                              \
			GT_REAL_OR_EARLY(gt_real_##name, gt_real_##name call_args, size, align);   \
		int timed = gt_stream_begin_call((enum gt_fn)gt_fn_of_##name);                     \
		uint64_t t0 = GT_TIMED_BEGIN(timed);                                               \
		gt_real_begin();                                                                   \
		void *r = gt_real_##name call_args;                                                \
		gt_real_end();                                                                     \
		GT_AGAIN_IF_OUT_OF_MEMORY(!r && errno == ENOMEM && gt_may_fit(size),               \
					  r = gt_real_##name call_args);                           \
		GT_RECORD(name, timed, t0, GT_TIMED_END(timed), __VA_ARGS__);                      \
		gt_leave();                                                                        \
		return r;                                                                          \
	}

GT_ALIGNED_HOOK(aligned_alloc, (size_t alignment, size_t size), (alignment, size), alignment,
		alignment, size, GT_U(r))
GT_ALIGNED_HOOK(memalign, (size_t alignment, size_t size), (alignment, size), alignment, alignment,
		size, GT_U(r))
GT_ALIGNED_HOOK(valloc, (size_t size), (size), (size_t)sysconf(_SC_PAGESIZE), size, GT_U(r))
GT_ALIGNED_HOOK(pvalloc, (size_t size), (size), (size_t)sysconf(_SC_PAGESIZE), size, GT_U(r))
