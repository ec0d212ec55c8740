/*
 * Maps and unmaps pages from 250 call sites while an interval timer's
 * handler (SIGALRM, every 50 µs) runs malloc and free: safe
 * untraced, where the handler can only interrupt the program's own code
 * and the map calls, none of them inside malloc. Traced, each new call
 * site has the stack walk read its frame's rule with libdw, which
 * allocates from the same malloc: a handler that landed there corrupted
 * the heap or waited for the arena its own thread held. The tracer now
 * blocks signals while it works in the program's malloc (tracer.h,
 * gt_own_begin).
 *
 * The handler also counts the times it interrupted code of the libraries
 * only the tracer runs (libdw, libelf, libz, libunwind): none, where
 * those signals wait. Prints "tracer's libraries interrupted N", and
 * "handler ran" once it ran at all.
 */
#define _GNU_SOURCE /* REG_RIP */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <ucontext.h>

#define MAX_RANGES 32
static struct {
	uintptr_t start, end;
} ranges[MAX_RANGES];
static int nranges;
static volatile sig_atomic_t interrupted, handled;

/* The code of the libraries the tracer loads, as mapped now. */
static void find_tracer_libraries(void)
{
	static const char *const names[] = {"libdw", "libelf", "libz.", "libunwind"};
	FILE *maps = fopen("/proc/self/maps", "r");
	char line[512];
	while (maps && fgets(line, sizeof(line), maps) && nranges < MAX_RANGES) {
		unsigned long start, end;
		char perms[8];
		const char *path = strrchr(line, '/');
		if (!path || sscanf(line, "%lx-%lx %7s", &start, &end, perms) != 3 ||
		    perms[2] != 'x')
			continue;
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (!strncmp(path + 1, names[i], strlen(names[i]))) {
				ranges[nranges].start = start;
				ranges[nranges++].end = end;
			}
	}
	if (maps)
		fclose(maps);
}

static void on_alarm(int sig, siginfo_t *info, void *context)
{
	(void)sig;
	(void)info;
#if defined(__x86_64__)
	uintptr_t ip = (uintptr_t)((ucontext_t *)context)->uc_mcontext.gregs[REG_RIP];
	for (int i = 0; i < nranges; i++)
		interrupted += ip >= ranges[i].start && ip < ranges[i].end;
#else
	(void)context;
#endif
	char *volatile p = malloc(64);
	free(p);
	handled = 1;
}

static __attribute__((noinline)) void map_unmap(void)
{
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p != MAP_FAILED)
		munmap(p, 4096);
}

/* 250 call sites: each a frame the stack walk has not seen. */
#define SITE(n)                                                                                    \
	static __attribute__((noinline)) void site##n(void)                                        \
	{                                                                                          \
		map_unmap();                                                                       \
		__asm__ volatile("" ::: "memory"); /* not a tail call */                           \
	}
/* Lists of calls, which clang-format would lay out anew each time. */
/* clang-format off */
#define TEN(n) SITE(n##0) SITE(n##1) SITE(n##2) SITE(n##3) SITE(n##4) \
	SITE(n##5) SITE(n##6) SITE(n##7) SITE(n##8) SITE(n##9)
#define TENS(X) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) \
	X(13) X(14) X(15) X(16) X(17) X(18) X(19) X(20) X(21) X(22) X(23) X(24) X(25)
TENS(TEN)
#define SITE_PTR(n) site##n,
#define TEN_PTRS(n) SITE_PTR(n##0) SITE_PTR(n##1) SITE_PTR(n##2) SITE_PTR(n##3) \
	SITE_PTR(n##4) SITE_PTR(n##5) SITE_PTR(n##6) SITE_PTR(n##7) SITE_PTR(n##8) SITE_PTR(n##9)
/* clang-format on */
static void (*const sites[])(void) = {TENS(TEN_PTRS)};

int main(void)
{
	free(malloc(1)); /* the tracer, if any, has started and loaded its libraries */
	find_tracer_libraries();
	struct sigaction sa = {.sa_sigaction = on_alarm, .sa_flags = SA_SIGINFO | SA_RESTART};
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	struct itimerval every = {{0, 50}, {0, 50}}, off = {{0, 0}, {0, 0}};
	setitimer(ITIMER_REAL, &every, NULL);
	for (int round = 0; round < 20 || !handled; round++)
		for (size_t i = 0; i < sizeof(sites) / sizeof(sites[0]); i++)
			sites[i]();
	setitimer(ITIMER_REAL, &off, NULL);
	printf("handler ran\ntracer's libraries interrupted %d\n", (int)interrupted);
	return 0;
}
