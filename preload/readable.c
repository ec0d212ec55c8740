/*
 * The tracer reads an exec's environment to add the run's variables
 * (exec_env.c). The kernel checks that memory itself, and execve fails
 * with EFAULT on a bad pointer, where the tracer's read crashed the
 * program. So the environment is probed first (gt_readable_pages). A
 * page once probed is not probed again for the next string: an
 * environment's strings lie together, and a few pages hold them all.
 */
#include "readable.h"

#include <errno.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

long gt_readable_pages(uintptr_t page, int n)
{
	char sink[GT_READABLE_PAGES_MAX];
	struct iovec local = {sink, (size_t)n}, remote[GT_READABLE_PAGES_MAX];
	for (int i = 0; i < n; i++)
		remote[i] = (struct iovec){(void *)(page + (uintptr_t)i * GT_READABLE_PAGE), 1};
	int saved_errno = errno;
	long got =
		syscall(SYS_process_vm_readv, getpid(), &local, 1ul, remote, (unsigned long)n, 0ul);
	int err = errno;
	errno = saved_errno;
	return got >= 0 ? got : err == EFAULT ? 0 : -1;
}

struct probe {
	uintptr_t page; /* the last page found readable, or 1 (none) */
};

static int page_readable(struct probe *pr, uintptr_t page)
{
	if (page == pr->page)
		return 1;
	/* Where the kernel cannot tell: read, as before the probe. */
	if (gt_readable_pages(page, 1) == 0)
		return 0;
	pr->page = page;
	return 1;
}

/* 1 if the bytes [p, p + n) are readable. */
static int bytes_readable(struct probe *pr, uintptr_t p, size_t n)
{
	for (uintptr_t page = p & ~(uintptr_t)(GT_READABLE_PAGE - 1); page < p + n;
	     page += GT_READABLE_PAGE)
		if (!page_readable(pr, page))
			return 0;
	return 1;
}

/* 1 if the string at s is readable up to its NUL. */
static int string_readable(struct probe *pr, const char *s)
{
	for (uintptr_t p = (uintptr_t)s;;) {
		if (!page_readable(pr, p & ~(uintptr_t)(GT_READABLE_PAGE - 1)))
			return 0;
		uintptr_t end = (p | (GT_READABLE_PAGE - 1)) + 1;
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
