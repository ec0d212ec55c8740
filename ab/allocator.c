/* Allocator names to library paths (see allocator.h). */
#define _GNU_SOURCE
#include "allocator.h"
#include "die.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct known {
	const char *name, *file, *package;
};

static const struct known known[] = {
	{"mimalloc", "libmimalloc.so.2", "libmimalloc2.0"},
	{"jemalloc", "libjemalloc.so.2", "libjemalloc2"},
};

/*
 * The directory of the libc this program runs with, e.g.
 * /usr/lib/x86_64-linux-gnu: Debian installs the allocators next to it, and
 * asking the loader avoids hard-coding the architecture's triplet.
 */
static char *libc_dir(void)
{
	Dl_info info;
	if (!dladdr((void *)&malloc, &info) || !info.dli_fname || !strchr(info.dli_fname, '/'))
		return NULL;
	char *real = realpath(info.dli_fname, NULL);
	if (!real)
		return NULL;
	char *slash = strrchr(real, '/');
	*slash = '\0';
	return real;
}

static char *absolute(const char *path)
{
	char *real = realpath(path, NULL);
	if (!real)
		gt_ab_die_errno("cannot use allocator '%s'", path);
	if (access(real, R_OK) < 0)
		gt_ab_die_errno("cannot use allocator '%s'", path);
	return real;
}

char *gt_ab_allocator_resolve(const char *name)
{
	if (!strcmp(name, "system"))
		return NULL;
	if (strchr(name, '/'))
		return absolute(name);
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		if (strcmp(name, known[i].name))
			continue;
		char *dir = libc_dir();
		if (!dir)
			gt_ab_die("cannot find %s: cannot locate the libc directory", name);
		char *path = gt_ab_xasprintf("%s/%s", dir, known[i].file);
		free(dir);
		if (access(path, R_OK) < 0)
			gt_ab_die("cannot find %s: no '%s' (install the Debian package %s)", name,
				  path, known[i].package);
		return path;
	}
	gt_ab_usage_error("unknown allocator '%s' (system, mimalloc, jemalloc or a path)", name);
}
