/*
 * A preloaded library whose write sends the process SIGTERM when it is
 * handed the second block of a trace (by its skippable frame's magic,
 * format.h: the first holds the image's start, written before the
 * program's main), then passes the call on to the next write, libc's. Preloaded after
 * libgittrace.so, it runs as the tracer's write: the tracer blocks signals
 * while it writes a block, so the signal is pending from there, every time,
 * where a timer's lands in a write only now and then
 * (tests/capture/killed_by_signal.sh).
 */
#define _GNU_SOURCE /* RTLD_NEXT */
#include <dlfcn.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

ssize_t write(int fd, const void *buf, size_t len)
{
	static ssize_t (*next)(int, const void *, size_t);
	static int blocks;
	static const unsigned char magic[4] = {0x5d, 0x2a, 0x4d, 0x18}; /* GT_SKIPPABLE_MAGIC, LE */
	if (!next)
		next = (ssize_t(*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	if (len >= sizeof(magic) && !memcmp(buf, magic, sizeof(magic)) && ++blocks == 2)
		kill(getpid(), SIGTERM);
	return next(fd, buf, len);
}
