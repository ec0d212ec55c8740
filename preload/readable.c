/*
 * The tracer reads an exec's environment to add the run's variables
 * (exec_env.c). The kernel checks that memory itself, and execve fails
 * with EFAULT on a bad pointer, where the tracer's read crashed the
 * program. So the environment is probed first: process_vm_readv on the
 * process itself reads one byte of a page, and fails where a load would
 * fault. A page once probed is not probed again for the next string:
 * an environment's strings lie together, and a few pages hold them all.
 */
#include "readable.h"

#include <errno.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#define PAGE 4096u /* the smallest page: a probe per 4 KiB is never too few */

struct probe {
	uintptr_t page; /* the last page found readable, or 1 (none) */
};

static int page_readable(struct probe *pr, uintptr_t page)
{
	if (page == pr->page)
		return 1;
	char sink;
	struct iovec local = {&sink, 1}, remote = {(void *)page, 1};
	int saved_errno = errno;
	long n = syscall(SYS_process_vm_readv, getpid(), &local, 1ul, &remote, 1ul, 0ul);
	/* A kernel or sandbox that refuses the call cannot tell: read, as before. */
	int readable = n == 1 || (n < 0 && errno != EFAULT);
	errno = saved_errno;
	if (readable)
		pr->page = page;
	return readable;
}

/* 1 if the bytes [p, p + n) are readable. */
static int bytes_readable(struct probe *pr, uintptr_t p, size_t n)
{
	for (uintptr_t page = p & ~(uintptr_t)(PAGE - 1); page < p + n; page += PAGE)
		if (!page_readable(pr, page))
			return 0;
	return 1;
}

/* 1 if the string at s is readable up to its NUL. */
static int string_readable(struct probe *pr, const char *s)
{
	for (uintptr_t p = (uintptr_t)s;;) {
		if (!page_readable(pr, p & ~(uintptr_t)(PAGE - 1)))
			return 0;
		uintptr_t end = (p | (PAGE - 1)) + 1;
		for (; p < end; p++)
			if (!*(const char *)p)
				return 1;
	}
}

int gt_readable_strings(char *const *v)
{
	/* The array's page and the strings' are apart: one probe each. */
	struct probe array = {1}, strings = {1};
	if (!v)
		return 1;
	for (;; v++) {
		if (!bytes_readable(&array, (uintptr_t)v, sizeof(*v)))
			return 0;
		if (!*v)
			return 1;
		if (!string_readable(&strings, *v))
			return 0;
	}
}
