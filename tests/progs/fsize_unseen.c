/*
 * fsize_unseen: a library, preloaded beside libgittrace, whose getrlimit
 * reports no file-size limit. The tracer's check before each block then
 * passes, and the block's write itself crosses the limit: what happens
 * when another process of the run appends to the trace between the check
 * and the write. The faults test's stand-in for that race. Other limits
 * are read by the system call itself, so it needs nothing resolved.
 */
#define _GNU_SOURCE
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

int getrlimit(__rlimit_resource_t resource, struct rlimit *rl)
{
	if (resource != RLIMIT_FSIZE)
		return (int)syscall(SYS_prlimit64, 0, resource, NULL, rl);
	rl->rlim_cur = rl->rlim_max = RLIM_INFINITY;
	return 0;
}
