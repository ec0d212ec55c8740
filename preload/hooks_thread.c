/*
 * Threads. The C library maps a new thread's stack itself, past the mmap
 * hooks: under a limit on memory (ulimit -v, or -d, which counts private
 * writable maps) pthread_create fails with EAGAIN where the tracer's
 * buffers took the room, as a malloc would fail with ENOMEM (git grep
 * --threads=8 died of it 11 MiB inside a limit it ran under untraced). As
 * for those (record.h, GT_AGAIN_IF_OUT_OF_MEMORY): if a limit may be what
 * failed, the tracer writes its last block, gives its memory back, and the
 * call is made again. EAGAIN from the limit on processes still fails, after
 * the tracer has stopped for nothing.
 */
#include "record.h"
#include "interpose.h"
#include "lifecycle.h"
#include "stack_walk.h"
#include "stream.h"
#include "tracer.h"

#include <errno.h>
#include <pthread.h>

/* The stack a new thread maps: attr's, or the process's default. */
static size_t stack_bytes(const pthread_attr_t *attr)
{
	size_t size = 0;
	pthread_attr_t dflt;
#ifdef __GLIBC__
	if (!attr && pthread_getattr_default_np(&dflt) == 0) {
		pthread_attr_getstacksize(&dflt, &size);
		pthread_attr_destroy(&dflt);
	}
#else
	(void)dflt;
#endif
	if (attr)
		pthread_attr_getstacksize(attr, &size);
	return size;
}

GT_EXPORT int GT_HOOK_NAME(pthread_create)(pthread_t *thread, const pthread_attr_t *attr,
					   void *(*start)(void *), void *arg)
{
	if (!gt_real_pthread_create)
		gt_resolve_real();
	int ret = gt_real_pthread_create(thread, attr, start, arg);
	if (ret != EAGAIN || !gt_enter())
		return ret;
	/* The C library may allocate to read the default: the tracer's own call. */
	struct gt_own own = gt_own_begin();
	size_t stack = stack_bytes(attr);
	gt_own_end(&own);
	int limited = gt_may_fit(stack);
	if (limited) {
		gt_stream_give_back(GT_OUT_OF_MEMORY);
		gt_stack_walk_give_back();
	}
	gt_leave();
	return limited ? gt_real_pthread_create(thread, attr, start, arg) : ret;
}
