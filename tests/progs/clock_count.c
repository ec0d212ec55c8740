/*
 * clock_count: a library, preloaded in front of libgittrace, that counts
 * the CLOCK_MONOTONIC readings made through clock_gettime (libgittrace's
 * clock, clock.h) and writes the count to the file $CLOCK_COUNT_OUT when
 * the process ends: the clock_reads test's meter. It reads the clock by the
 * system call itself, so it needs nothing resolved.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static atomic_ulong monotonic_reads;

int clock_gettime(clockid_t clock, struct timespec *ts)
{
	if (clock == CLOCK_MONOTONIC)
		atomic_fetch_add_explicit(&monotonic_reads, 1, memory_order_relaxed);
	return (int)syscall(SYS_clock_gettime, clock, ts);
}

/* After libgittrace's END: a destructor of the library loaded first runs last. */
__attribute__((destructor)) static void write_count(void)
{
	const char *out = getenv("CLOCK_COUNT_OUT");
	if (!out)
		return;
	int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	char line[32];
	int n = snprintf(line, sizeof(line), "%lu\n", atomic_load(&monotonic_reads));
	if (n > 0)
		(void)!write(fd, line, (size_t)n); /* a failed write: the test finds no count */
	close(fd);
}
