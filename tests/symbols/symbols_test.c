/*
 * Unit test of the offline symbolizer (analyzer/symbols/symbols.c): looks up return
 * addresses captured at run time in this very program (built -g -O2, see
 * subject.c), in a stripped copy of it, in libc and in libzstd, and feeds it
 * the kinds of broken module the trace may record.
 *
 * usage: symbols_test STRIPPED_COPY [pie|exec|debuginfod|debug-path]
 *   debuginfod: only check that the stripped copy gets its names and lines
 *   from the debuginfod server in DEBUGINFOD_URLS (debuginfod.sh serves it)
 *   debug-path: only check that it gets them from a debug file found by
 *   path (named by its .gnu_debuglink, or by its own name under .debug)
 */
#define _GNU_SOURCE
#include "../../analyzer/symbols/symbols.h"
#include "../check.h"
#include "module_of.h"
#include "subject.h"

#include <dirent.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int streq(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = s ? strlen(s) : 0, m = strlen(suffix);
	return s && n >= m && !strcmp(s + n - m, suffix);
}

static void print_frames(const char *what, const struct gt_frame_info *f, int n)
{
	for (int i = 0; i < n; i++)
		printf("%s #%d %s+%#llx %s %s:%d%s\n", what, i, f[i].module,
		       (unsigned long long)f[i].offset, f[i].function ? f[i].function : "??",
		       f[i].file ? f[i].file : "??", f[i].line, f[i].inlined ? " (inlined)" : "");
}

/* Looks up the return address ra in the module that holds it. */
static int lookup_ra(struct gt_symbols *syms, const void *ra, struct gt_frame_info *f, int max,
		     const char *what)
{
	struct gt_module_of m;
	if (gt_module_of(ra, &m) != 0) {
		fprintf(stderr, "%s: no module holds %p\n", what, ra);
		check_failures++;
		return 0;
	}
	int n = gt_symbols_lookup(syms, m.path, m.build_id, m.build_id_len, (uintptr_t)ra - m.bias,
				  f, max);
	print_frames(what, f, n);
	return n;
}

static int count_fds(void)
{
	int n = 0;
	DIR *d = opendir("/proc/self/fd");
	if (!d)
		return -1;
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

/* Every way a recorded module can be useless: one frame, function NULL. */
static void check_unknown_module(struct gt_symbols *syms, const char *path, const uint8_t *id,
				 size_t id_len)
{
	struct gt_frame_info f[4];
	CHECK(gt_symbols_module_status(syms, path, id, id_len) == -1);
	int n = gt_symbols_lookup(syms, path, id, id_len, 0x1234, f, 4);
	CHECK(n == 1);
	CHECK(f[0].function == NULL && f[0].file == NULL && f[0].line == 0);
	CHECK(f[0].offset == 0x1234 && f[0].inlined == 0);
	CHECK(streq(f[0].module, path));
}

static void check_broken_modules(struct gt_symbols *syms, const struct gt_module_of *self)
{
	check_unknown_module(syms, "/nonexistent/gittrace/libnothing.so", NULL, 0);
	check_unknown_module(syms, "", NULL, 0);
	check_unknown_module(syms, "[vdso]", NULL, 0);
	check_unknown_module(syms, "linux-vdso.so.1", NULL, 0);
	check_unknown_module(syms, "/", NULL, 0);

	/* A relative path, even of a file that is there, names a file in the
	 * traced process's cwd, not ours. */
	const char *base = strrchr(self->path, '/') + 1;
	CHECK(access(base, R_OK) == 0);
	check_unknown_module(syms, base, self->build_id, self->build_id_len);

	char cwd[2048], name[2200];
	CHECK(getcwd(cwd, sizeof(cwd)) != NULL);
	snprintf(name, sizeof(name), "%s/not-elf.%d", cwd, (int)getpid());
	FILE *fp = fopen(name, "w");
	CHECK(fp != NULL);
	if (fp) {
		fputs("not an ELF file\n", fp);
		fclose(fp);
		check_unknown_module(syms, name, NULL, 0);
		unlink(name);
	}
	/* Opening a FIFO would block: the symbolizer must not try. */
	snprintf(name, sizeof(name), "%s/fifo.%d", cwd, (int)getpid());
	CHECK(mkfifo(name, 0600) == 0);
	check_unknown_module(syms, name, NULL, 0);
	unlink(name);

	/* The right file from another build. */
	uint8_t other[sizeof(self->build_id)];
	memcpy(other, self->build_id, self->build_id_len);
	other[0] ^= 0xff;
	check_unknown_module(syms, self->path, other, self->build_id_len);
	/* A shorter id is not the same id. */
	check_unknown_module(syms, self->path, self->build_id, self->build_id_len - 1);
}

static void check_inlined(struct gt_symbols *syms, const struct gt_module_of *self)
{
	struct gt_frame_info f[8], again[8];
	int n = lookup_ra(syms, gt_subject_marks.leaf_ra, f, 8, "leaf");
	CHECK(n == 2);
	if (n != 2)
		return;
	CHECK(streq(f[0].function, "subject_helper"));
	CHECK(f[0].inlined == 1);
	CHECK(ends_with(f[0].file, "/subject.c"));
	CHECK(f[0].line == gt_subject_marks.leaf_call_line);
	CHECK(streq(f[1].function, "gt_subject_outer"));
	CHECK(f[1].inlined == 0);
	CHECK(ends_with(f[1].file, "/subject.c"));
	CHECK(f[1].line == gt_subject_marks.helper_call_line);
	uint64_t ip_rel = (uintptr_t)gt_subject_marks.leaf_ra - self->bias;
	CHECK(f[0].offset == ip_rel && f[1].offset == ip_rel);
	CHECK(streq(f[0].module, self->path) && streq(f[1].module, self->path));

	/* Cached: the same strings come back. */
	CHECK(lookup_ra(syms, gt_subject_marks.leaf_ra, again, 8, "leaf again") == 2);
	CHECK(again[0].function == f[0].function && again[1].file == f[1].file);

	/* Room for one frame: the real function, not the inlined one. */
	CHECK(lookup_ra(syms, gt_subject_marks.leaf_ra, again, 1, "leaf max 1") == 1);
	CHECK(streq(again[0].function, "gt_subject_outer") && again[0].inlined == 0);
	CHECK(gt_symbols_lookup(syms, self->path, self->build_id, self->build_id_len, ip_rel, again,
				0) == 0);

	/* An empty recorded build-id means "do not check". */
	CHECK(gt_symbols_lookup(syms, self->path, NULL, 0, ip_rel, again, 8) == 2);
	CHECK(streq(again[1].function, "gt_subject_outer"));
}

static void check_stripped(struct gt_symbols *syms, const struct gt_module_of *self,
			   const char *stripped)
{
	struct gt_frame_info f[8];
	CHECK(gt_symbols_module_status(syms, stripped, self->build_id, self->build_id_len) == 0);
	/* gt_subject_outer is exported (-rdynamic), so .dynsym still names it,
	 * but no line info and no inlines survive. */
	uint64_t ip_rel = (uintptr_t)gt_subject_marks.leaf_ra - self->bias;
	int n = gt_symbols_lookup(syms, stripped, self->build_id, self->build_id_len, ip_rel, f, 8);
	print_frames("stripped leaf", f, n);
	CHECK(n == 1);
	CHECK(streq(f[0].function, "gt_subject_outer"));
	CHECK(f[0].file == NULL && f[0].line == 0 && f[0].inlined == 0);
	CHECK(streq(f[0].module, stripped));

	/* A static function is in no symbol table of the stripped copy: it
	 * must stay unnamed rather than borrow a neighbour's name. */
	uint64_t hidden = (uintptr_t)gt_subject_hidden_address() - self->bias + 1;
	n = gt_symbols_lookup(syms, stripped, self->build_id, self->build_id_len, hidden, f, 8);
	print_frames("stripped hidden", f, n);
	CHECK(n == 1 && f[0].function == NULL);
	n = gt_symbols_lookup(syms, self->path, self->build_id, self->build_id_len, hidden, f, 8);
	print_frames("hidden", f, n);
	CHECK(n == 1 && streq(f[0].function, "subject_hidden"));
	CHECK(ends_with(f[0].file, "/subject.c"));
}

/*
 * The stripped copy, with its debug info somewhere else (a debuginfod server
 * that knows its build-id, or a file found by path: named by its debuglink,
 * or by its own name under .debug): a static function (in no symbol table
 * of the copy) gets its name and line, and inlined frames come back.
 */
static void check_separate_debug(const struct gt_module_of *self, const char *stripped,
				 const char *how)
{
	struct gt_symbols *syms = gt_symbols_new();
	CHECK(syms != NULL);
	if (!syms)
		return;
	CHECK(gt_symbols_module_status(syms, stripped, self->build_id, self->build_id_len) == 1);
	struct gt_frame_info f[8];
	uint64_t hidden = (uintptr_t)gt_subject_hidden_address() - self->bias + 1;
	int n = gt_symbols_lookup(syms, stripped, self->build_id, self->build_id_len, hidden, f, 8);
	printf("%s: ", how);
	print_frames("hidden", f, n);
	CHECK(n == 1 && streq(f[0].function, "subject_hidden"));
	CHECK(ends_with(f[0].file, "/subject.c"));
	uint64_t ip_rel = (uintptr_t)gt_subject_marks.leaf_ra - self->bias;
	n = gt_symbols_lookup(syms, stripped, self->build_id, self->build_id_len, ip_rel, f, 8);
	printf("%s: ", how);
	print_frames("leaf", f, n);
	CHECK(n == 2 && streq(f[0].function, "subject_helper") && f[0].inlined == 1);
	CHECK(f[0].line == gt_subject_marks.leaf_call_line);
	gt_symbols_free(syms);
}

/* Whether the module's separate debug file is installed where distributions
 * put it (/usr/lib/debug/.build-id/xx/rest.debug). */
static int has_debug_file(const struct gt_module_of *m)
{
	char path[256];
	int len = snprintf(path, sizeof(path), "/usr/lib/debug/.build-id/%02x/", m->build_id[0]);
	for (size_t i = 1; i < m->build_id_len; i++)
		len += snprintf(path + len, sizeof(path) - (size_t)len, "%02x", m->build_id[i]);
	snprintf(path + len, sizeof(path) - (size_t)len, ".debug");
	return m->build_id_len > 1 && access(path, R_OK) == 0;
}

/* Looks up the first byte of a function, as a return address the lookup
 * steps back from. Sets *status and *debug_file (see has_debug_file). */
static int lookup_function(struct gt_symbols *syms, void *fn, struct gt_frame_info *f,
			   const char *what, int *status, int *debug_file)
{
	struct gt_module_of m;
	if (!fn || gt_module_of(fn, &m) != 0) {
		fprintf(stderr, "%s: not found\n", what);
		check_failures++;
		return 0;
	}
	*status = gt_symbols_module_status(syms, m.path, m.build_id, m.build_id_len);
	*debug_file = has_debug_file(&m);
	printf("%s: %s status %d, debug file %s\n", what, m.path, *status,
	       *debug_file ? "installed" : "absent");
	int n = gt_symbols_lookup(syms, m.path, m.build_id, m.build_id_len,
				  (uintptr_t)fn - m.bias + 1, f, 8);
	print_frames(what, f, n);
	return n;
}

/* An exported function of a system library is named, from its .dynsym when
 * the library is stripped (then without file or line). */
static void check_exported(struct gt_symbols *syms, const char *soname, const char *function)
{
	struct gt_frame_info f[8];
	int status, debug_file;
	void *lib = dlopen(soname, RTLD_NOW);
	CHECK(lib != NULL);
	if (!lib)
		return;
	int n = lookup_function(syms, dlsym(lib, function), f, soname, &status, &debug_file);
	CHECK(status >= 0);
	CHECK(n >= 1 && streq(f[n - 1].function, function));
	if (status == 0)
		CHECK(n == 1 && f[0].file == NULL && f[0].line == 0);
	dlclose(lib);
}

static void check_system_libraries(struct gt_symbols *syms)
{
	struct gt_frame_info f[8];
	int status, debug_file, n;
	/* dlsym on libc's own handle: a sanitizer's malloc must not answer. */
	void *libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
	CHECK(libc != NULL);
	if (libc) {
		n = lookup_function(syms, dlsym(libc, "malloc"), f, "libc malloc", &status,
				    &debug_file);
		CHECK(status >= 0);
		/* glibc's DWARF calls it __libc_malloc, its .dynsym malloc. */
		CHECK(n >= 1 && f[n - 1].function && strstr(f[n - 1].function, "malloc"));
		/* With libc6-dbg (or the like) the build-id lookup must find
		 * the separate debug file and its line table. */
		if (debug_file)
			CHECK(status == 1 && n >= 1 && ends_with(f[n - 1].file, "/malloc.c"));
		dlclose(libc);
	}
	/* No debug package for libzstd here: .dynsym is all there is. */
	check_exported(syms, "libzstd.so.1", "ZSTD_versionNumber");
	/* zlib, which git calls to (de)compress every object: Debian ships it
	 * stripped, so an exported function's name comes from .dynsym. */
	check_exported(syms, "libz.so.1", "deflateInit2_");
}

static void check_outside(struct gt_symbols *syms, const struct gt_module_of *self)
{
	struct gt_frame_info f[2];
	const uint64_t outside[] = {0, 1, 1ull << 40, UINT64_MAX};
	for (size_t i = 0; i < sizeof(outside) / sizeof(outside[0]); i++) {
		int n = gt_symbols_lookup(syms, self->path, self->build_id, self->build_id_len,
					  outside[i], f, 2);
		CHECK(n == 1 && f[0].function == NULL && f[0].offset == outside[i]);
	}
}

static int debuginfod_loaded(void)
{
	void *client = dlopen("libdebuginfod.so.1", RTLD_NOW | RTLD_NOLOAD);
	if (client)
		dlclose(client);
	return client != NULL;
}

/*
 * Run with DEBUGINFOD_URLS empty, after modules with no debug file on disk
 * (the stripped copy, libz, libzstd): with no server to ask, libdw must not
 * have loaded libdebuginfod and its 27 libraries. Returns 0 when it cannot
 * tell: something loaded it before the lookups (was_loaded).
 */
static int check_no_debuginfod(int was_loaded)
{
	if (was_loaded)
		return 0;
	CHECK(!debuginfod_loaded());
	return 1;
}

int main(int argc, char **argv)
{
	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: symbols_test STRIPPED_COPY [pie|exec|debuginfod]\n");
		return 2;
	}
	int outer_call_line = __LINE__, dummy = (gt_subject_outer(), 0);
	(void)dummy;

	struct gt_module_of self;
	CHECK(gt_module_of(gt_subject_marks.leaf_ra, &self) == 0 && self.is_main);
	CHECK(self.build_id_len > 0);
	if (argc == 3 && !strcmp(argv[2], "exec"))
		CHECK(self.bias == 0); /* ET_EXEC: addresses are vaddrs already */
	if (argc == 3 && !strcmp(argv[2], "pie"))
		CHECK(self.bias != 0);
	if (check_failures)
		return 1;
	if (argc == 3 && !strcmp(argv[2], "debuginfod")) {
		check_separate_debug(&self, argv[1], "debuginfod");
		return check_result("symbols test (debuginfod)");
	}
	if (argc == 3 && !strcmp(argv[2], "debug-path")) {
		check_separate_debug(&self, argv[1], "debug-path");
		return check_result("symbols test (debug-path)");
	}

	int debuginfod_was_loaded = debuginfod_loaded();
	/* Warm up what dlopen and stdio open for good before counting fds. */
	void *zstd = dlopen("libzstd.so.1", RTLD_NOW);
	printf("symbols test: %s bias %#llx\n", self.path, (unsigned long long)self.bias);
	int fds = count_fds();

	struct gt_symbols *syms = gt_symbols_new();
	CHECK(syms != NULL);
	if (!syms)
		return 1;
	CHECK(gt_symbols_module_status(syms, self.path, self.build_id, self.build_id_len) == 1);
	check_inlined(syms, &self);

	struct gt_frame_info f[4];
	int n = lookup_ra(syms, gt_subject_marks.outer_ra, f, 4, "outer");
	CHECK(n == 1 && streq(f[0].function, "main") && f[0].inlined == 0);
	CHECK(ends_with(f[0].file, "/symbols_test.c") && f[0].line == outer_call_line);

	check_stripped(syms, &self, argv[1]);
	check_system_libraries(syms);
	check_broken_modules(syms, &self);
	check_outside(syms, &self);
	gt_symbols_free(syms);
	gt_symbols_free(NULL);

	int debuginfod_checked = check_no_debuginfod(debuginfod_was_loaded);
	CHECK(count_fds() == fds);
	if (zstd)
		dlclose(zstd);
	int status = check_result("symbols test");
	if (status == 0 && !debuginfod_checked) {
		printf("skip: libdebuginfod was loaded before any lookup, so whether lookups "
		       "load it went unchecked\n");
		return 77; /* SKIP_RETURN_CODE */
	}
	return status;
}
