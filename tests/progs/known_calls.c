/*
 * known_calls: a deterministic program that makes known numbers of calls to
 * every function the preload hooks, from named call sites, in every kind of
 * process image a traced run can have. The capture and analyzer tests run it
 * under the preload and compare the trace with what `known_calls --expect`
 * prints: the expectations come from the same constants the program uses,
 * never from numbers written into a test script.
 *
 * usage: known_calls DIR          run; DIR gets objects/pack/pack-<hex>.pack
 *        known_calls --expect     print the expected counts as JSON
 *        known_calls --exec-child (internal) the image a forked child execs
 *
 * What a run does (the root process):
 *   - one work unit (every site_* below, once) in the main thread, then one
 *     in each of N_THREADS threads;
 *   - maps each of PACK_WINDOWS 64 KiB windows of a pack file three times
 *     (map, unmap, map, unmap, map), closing the fd right after each map as
 *     git does, and unmaps the last maps at the end;
 *   - leaks LEAK_BLOCKS blocks of LEAK_SIZE bytes from site_leak;
 *   - forks a child that does FORK_UNITS units and ends with _exit, while
 *     the parent's own records are still unwritten in its buffers;
 *   - forks a child that execs this program (/proc/self/exe --exec-child),
 *     whose new image does EXEC_UNITS units and returns from main.
 * Every site makes calls to exactly one hooked function, with a size no
 * other site uses, so a trace can be checked per site even though libc
 * (stdio, pthread_create) makes allocations of its own.
 *
 * Build with -O0 -fno-inline -fno-omit-frame-pointer -fno-builtin so each
 * site stays a real frame and no call is optimised away.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))

/* Work units per image: distinct so that records counted in the wrong image show. */
#define N_THREADS  4
#define ROOT_UNITS (1 + N_THREADS)
#define FORK_UNITS 2
#define EXEC_UNITS 3

#define LEAK_BLOCKS 3
#define LEAK_SIZE   1000

#define PACK_WINDOWS   4
#define PACK_WINDOW    (64 * 1024)
#define PACK_MAPS_EACH 3
#define PACK_NAME      "pack-0123456789abcdef0123456789abcdef01234567.pack"

/*
 * The sites of one work unit: name, hooked function, calls per unit, and the
 * size argument (the first size for site_realloc, which grows by
 * REALLOC_STEP per call). Page counts are used for the mapping sites.
 */
#define REALLOC_STEP 16
#define PAGES_MMAP   3
#define PAGES_MMAP64 5
#define PAGES_MREMAP 6 /* first new size; each further mremap adds a page */
#define SITES(X)                                                                                   \
	X(site_malloc, malloc, 7, 1008)                                                            \
	X(site_calloc, calloc, 5, 344)                                                             \
	X(site_realloc, realloc, 6, 1104)                                                          \
	X(site_reallocarray, reallocarray, 4, 376)                                                 \
	X(site_posix_memalign, posix_memalign, 3, 1200)                                            \
	X(site_aligned_alloc, aligned_alloc, 3, 1280)                                              \
	X(site_memalign, memalign, 2, 1536)                                                        \
	X(site_valloc, valloc, 2, 1600)                                                            \
	X(site_pvalloc, pvalloc, 2, 1700)                                                          \
	X(site_mmap, mmap, 3, PAGES_MMAP)                                                          \
	X(site_mmap64, mmap64, 2, PAGES_MMAP64)                                                    \
	X(site_mremap, mremap, 2, PAGES_MREMAP)

enum {
#define X(site, fn, calls, size) N_##site = calls, S_##site = size,
	SITES(X)
#undef X
};

#define CALLOC_NMEMB	   3
#define REALLOCARRAY_NMEMB 2
#define ALIGN_POSIX	   64
#define ALIGN_ALIGNED	   128
#define ALIGN_MEMALIGN	   256

/* Blocks freed by site_free: every block a unit allocates on the heap (the
 * realloc and reallocarray chains each end as one block). */
#define N_FREE                                                                                     \
	(N_site_malloc + N_site_calloc + 1 + 1 + N_site_posix_memalign + N_site_aligned_alloc +    \
	 N_site_memalign + N_site_valloc + N_site_pvalloc)
/* Mappings unmapped by site_munmap: every anonymous map of a unit. */
#define N_MUNMAP (N_site_mmap + N_site_mmap64)

/* What one unit holds between its allocating sites and site_free/site_munmap. */
struct unit {
	void *blocks[N_FREE];
	int nblocks;
	void *maps[N_MUNMAP];
	size_t map_len[N_MUNMAP];
	int nmaps;
};

static long page;

static void die(const char *what)
{
	fprintf(stderr, "known_calls: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void keep(struct unit *u, void *p)
{
	if (!p)
		die("allocation failed");
	u->blocks[u->nblocks++] = p;
}

static void keep_map(struct unit *u, void *p, size_t len)
{
	if (p == MAP_FAILED)
		die("mmap");
	u->maps[u->nmaps] = p;
	u->map_len[u->nmaps++] = len;
}

static NOINLINE void site_malloc(struct unit *u)
{
	for (int i = 0; i < N_site_malloc; i++)
		keep(u, malloc(S_site_malloc));
}

static NOINLINE void site_calloc(struct unit *u)
{
	for (int i = 0; i < N_site_calloc; i++)
		keep(u, calloc(CALLOC_NMEMB, S_site_calloc));
}

static NOINLINE void site_realloc(struct unit *u)
{
	void *p = NULL;
	for (int i = 0; i < N_site_realloc; i++) {
		p = realloc(p, S_site_realloc + (size_t)i * REALLOC_STEP);
		if (!p)
			die("realloc");
	}
	keep(u, p);
}

static NOINLINE void site_reallocarray(struct unit *u)
{
	void *p = NULL;
	for (int i = 0; i < N_site_reallocarray; i++) {
		p = reallocarray(p, REALLOCARRAY_NMEMB,
				 S_site_reallocarray + (size_t)i * REALLOC_STEP);
		if (!p)
			die("reallocarray");
	}
	keep(u, p);
}

static NOINLINE void site_posix_memalign(struct unit *u)
{
	for (int i = 0; i < N_site_posix_memalign; i++) {
		void *p = NULL;
		errno = posix_memalign(&p, ALIGN_POSIX, S_site_posix_memalign);
		keep(u, p);
	}
}

static NOINLINE void site_aligned_alloc(struct unit *u)
{
	for (int i = 0; i < N_site_aligned_alloc; i++)
		keep(u, aligned_alloc(ALIGN_ALIGNED, S_site_aligned_alloc));
}

static NOINLINE void site_memalign(struct unit *u)
{
	for (int i = 0; i < N_site_memalign; i++)
		keep(u, memalign(ALIGN_MEMALIGN, S_site_memalign));
}

static NOINLINE void site_valloc(struct unit *u)
{
	for (int i = 0; i < N_site_valloc; i++)
		keep(u, valloc(S_site_valloc));
}

static NOINLINE void site_pvalloc(struct unit *u)
{
	for (int i = 0; i < N_site_pvalloc; i++)
		keep(u, pvalloc(S_site_pvalloc));
}

static NOINLINE void site_mmap(struct unit *u)
{
	size_t len = (size_t)(S_site_mmap * page);
	for (int i = 0; i < N_site_mmap; i++)
		keep_map(
			u,
			mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
			len);
}

static NOINLINE void site_mmap64(struct unit *u)
{
	size_t len = (size_t)(S_site_mmap64 * page);
	for (int i = 0; i < N_site_mmap64; i++)
		keep_map(u,
			 mmap64(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
				0),
			 len);
}

/* Grows the unit's first anonymous map again and again (it may move). */
static NOINLINE void site_mremap(struct unit *u)
{
	for (int i = 0; i < N_site_mremap; i++) {
		size_t len = (size_t)((S_site_mremap + i) * page);
		void *p = mremap(u->maps[0], u->map_len[0], len, MREMAP_MAYMOVE);
		if (p == MAP_FAILED)
			die("mremap");
		u->maps[0] = p;
		u->map_len[0] = len;
	}
}

static NOINLINE void site_free(struct unit *u)
{
	for (int i = 0; i < u->nblocks; i++)
		free(u->blocks[i]);
	u->nblocks = 0;
}

static NOINLINE void site_munmap(struct unit *u)
{
	for (int i = 0; i < u->nmaps; i++)
		if (munmap(u->maps[i], u->map_len[i]))
			die("munmap");
	u->nmaps = 0;
}

static NOINLINE void do_work(void)
{
	struct unit u = {0};
#define X(site, fn, calls, size) site(&u);
	SITES(X)
#undef X
	site_free(&u);
	site_munmap(&u);
}

/* Written, never read: the blocks stay unreachable once overwritten. */
static void *volatile leak_sink;

static NOINLINE void site_leak(void)
{
	for (int i = 0; i < LEAK_BLOCKS; i++)
		leak_sink = malloc(LEAK_SIZE);
}

static void *thread_main(void *arg)
{
	(void)arg;
	do_work();
	return NULL;
}

static char pack_path[4096];

/* Maps window k of the pack through a fresh fd, closed right after as git does. */
static NOINLINE void *site_pack_map(int k)
{
	int fd = open(pack_path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		die(pack_path);
	void *p = mmap(NULL, PACK_WINDOW, PROT_READ, MAP_PRIVATE, fd, (off_t)k * PACK_WINDOW);
	if (p == MAP_FAILED)
		die("mmap pack");
	close(fd);
	return p;
}

static NOINLINE void site_pack_unmap(void *p)
{
	if (munmap(p, PACK_WINDOW))
		die("munmap pack");
}

static void make_pack(const char *dir)
{
	char path[4096];
	static const char *const sub[] = {"", "objects", "objects/pack"};
	for (size_t i = 0; i < sizeof(sub) / sizeof(sub[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, sub[i]);
		if (mkdir(path, 0777) && errno != EEXIST)
			die(path);
	}
	snprintf(pack_path, sizeof(pack_path), "%s/objects/pack/%s", dir, PACK_NAME);
	int fd = open(pack_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0)
		die(pack_path);
	static char chunk[4096];
	for (int i = 0; i < PACK_WINDOWS * PACK_WINDOW / (int)sizeof(chunk); i++) {
		memset(chunk, 'a' + i % 26, sizeof(chunk));
		if (write(fd, chunk, sizeof(chunk)) != (ssize_t)sizeof(chunk))
			die("write pack");
	}
	close(fd);
}

static void wait_ok(pid_t pid, const char *what)
{
	int status;
	if (waitpid(pid, &status, 0) != pid)
		die("waitpid");
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "known_calls: %s child failed (status 0x%x)\n", what, status);
		exit(1);
	}
}

static NOINLINE void fork_exit_child(void)
{
	for (int i = 0; i < FORK_UNITS; i++)
		do_work();
	_exit(0);
}

static int run_exec_child(void)
{
	for (int i = 0; i < EXEC_UNITS; i++)
		do_work();
	return 0;
}

static int run(const char *dir)
{
	void *windows[PACK_WINDOWS];
	pthread_t threads[N_THREADS];

	make_pack(dir);
	do_work();
	for (int i = 0; i < N_THREADS; i++)
		if ((errno = pthread_create(&threads[i], NULL, thread_main, NULL)))
			die("pthread_create");
	for (int i = 0; i < N_THREADS; i++)
		pthread_join(threads[i], NULL);
	for (int k = 0; k < PACK_WINDOWS; k++) {
		windows[k] = site_pack_map(k);
		for (int again = 1; again < PACK_MAPS_EACH; again++) {
			site_pack_unmap(windows[k]);
			windows[k] = site_pack_map(k);
		}
	}
	site_leak();

	fflush(NULL); /* nothing buffered may be printed twice by a child */
	pid_t a = fork();
	if (a < 0)
		die("fork");
	if (a == 0)
		fork_exit_child();
	pid_t b = fork();
	if (b < 0)
		die("fork");
	if (b == 0) {
		char *const argv[] = {"known_calls", "--exec-child", NULL};
		execv("/proc/self/exe", argv);
		_exit(127);
	}
	for (int k = 0; k < PACK_WINDOWS; k++)
		site_pack_unmap(windows[k]);
	wait_ok(a, "fork");
	wait_ok(b, "exec");
	printf("known_calls: done\n");
	return 0;
}

/* ---- --expect ------------------------------------------------------ */

/* One site's calls in an image; caller: the function that calls the site
 * directly, for the sites not called through do_work (NULL otherwise). */
static void print_site(const char *site, const char *fn, long calls, const char *caller, int *first)
{
	printf("%s\"%s\": {\"function\": \"%s\", \"calls\": %ld", *first ? "" : ", ", site, fn,
	       calls);
	if (caller)
		printf(", \"caller\": \"%s\"", caller);
	printf("}");
	*first = 0;
}

/* The sizes (bytes, or pages for the mapping sites) of one unit's calls, in order. */
static void print_unit(void)
{
	int first = 1;
	printf("{");
#define X(site, fn, calls, size)                                                                   \
	do {                                                                                       \
		printf("%s\"%s\": {\"function\": \"%s\", \"calls\": %d, \"sizes\": [",             \
		       first ? "" : ", ", #site, #fn, calls);                                      \
		for (int i = 0; i < calls; i++) {                                                  \
			long s = size;                                                             \
			if (!strcmp(#fn, "realloc"))                                               \
				s += (long)i * REALLOC_STEP;                                       \
			if (!strcmp(#fn, "reallocarray"))                                          \
				s = REALLOCARRAY_NMEMB * (s + (long)i * REALLOC_STEP);             \
			if (!strcmp(#fn, "calloc"))                                                \
				s *= CALLOC_NMEMB;                                                 \
			if (!strcmp(#fn, "mmap") || !strcmp(#fn, "mmap64"))                        \
				s *= page;                                                         \
			if (!strcmp(#fn, "mremap"))                                                \
				s = (s + i) * page;                                                \
			printf("%s%ld", i ? ", " : "", s);                                         \
		}                                                                                  \
		printf("]}");                                                                      \
		first = 0;                                                                         \
	} while (0);
	SITES(X)
#undef X
	printf(", \"site_free\": {\"function\": \"free\", \"calls\": %d}", N_FREE);
	printf(", \"site_munmap\": {\"function\": \"munmap\", \"calls\": %d}}", N_MUNMAP);
}

/* Per image: the sites' calls for that many units, plus the extra sites. */
static void print_image(const char *role, const char *origin, int units, int threads,
			const char *callers, int root)
{
	int first = 1;
	printf("    {\"role\": \"%s\", \"origin\": \"%s\", \"units\": %d,"
	       " \"threads_with_work\": %d,\n     \"callers\": {%s},\n     \"sites\": {",
	       role, origin, units, threads, callers);
#define X(site, fn, calls, size) print_site(#site, #fn, (long)(calls)*units, NULL, &first);
	SITES(X)
#undef X
	print_site("site_free", "free", (long)N_FREE * units, NULL, &first);
	print_site("site_munmap", "munmap", (long)N_MUNMAP * units, NULL, &first);
	if (root) {
		print_site("site_leak", "malloc", LEAK_BLOCKS, "run", &first);
		print_site("site_pack_map", "mmap", PACK_WINDOWS * PACK_MAPS_EACH, "run", &first);
		print_site("site_pack_unmap", "munmap", PACK_WINDOWS * PACK_MAPS_EACH, "run",
			   &first);
	}
	printf("}}");
}

static int expect(void)
{
	printf("{\"known_calls\": 1,\n \"page_size\": %ld,\n \"unit\": ", page);
	print_unit();
	printf(",\n \"images\": [\n");
	char callers[128];
	/* The functions that call do_work, and how many units each runs. */
	snprintf(callers, sizeof(callers), "\"run\": 1, \"thread_main\": %d", N_THREADS);
	print_image("root", "root", ROOT_UNITS, 1 + N_THREADS, callers, 1);
	printf(",\n");
	snprintf(callers, sizeof(callers), "\"fork_exit_child\": %d", FORK_UNITS);
	print_image("fork_exit", "fork", FORK_UNITS, 1, callers, 0);
	printf(",\n");
	print_image("fork_then_exec", "fork", 0, 0, "", 0);
	printf(",\n");
	snprintf(callers, sizeof(callers), "\"run_exec_child\": %d", EXEC_UNITS);
	print_image("exec", "exec", EXEC_UNITS, 1, callers, 0);
	printf("\n ],\n \"exec_argv\": [\"known_calls\", \"--exec-child\"],\n");
	printf(" \"leak\": {\"site\": \"site_leak\", \"allocations\": %d, \"bytes\": %d},\n",
	       LEAK_BLOCKS, LEAK_BLOCKS * LEAK_SIZE);
	printf(" \"pack\": {\"file\": \"objects/pack/%s\", \"window_bytes\": %d, \"maps\": %d,"
	       " \"munmaps\": %d, \"distinct_regions\": %d, \"remapped_regions\": %d}}\n",
	       PACK_NAME, PACK_WINDOW, PACK_WINDOWS * PACK_MAPS_EACH, PACK_WINDOWS * PACK_MAPS_EACH,
	       PACK_WINDOWS, PACK_WINDOWS * (PACK_MAPS_EACH - 1));
	return 0;
}

int main(int argc, char **argv)
{
	page = sysconf(_SC_PAGESIZE);
	if (argc == 2 && !strcmp(argv[1], "--expect"))
		return expect();
	if (argc == 2 && !strcmp(argv[1], "--exec-child"))
		return run_exec_child();
	if (argc == 2 && argv[1][0] != '-')
		return run(argv[1]);
	fprintf(stderr, "usage: known_calls DIR | --expect\n");
	return 2;
}
