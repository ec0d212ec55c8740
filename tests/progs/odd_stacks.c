/*
 * Calls made on stacks a tracer can trip over, one case per run:
 *
 *   odd_stacks min-thread FILE  a thread of PTHREAD_STACK_MIN (16 KiB) bytes
 *                               allocates, maps anonymous memory, maps FILE
 *                               (a path longer than 256 bytes), and loads
 *                               libm
 *   odd_stacks altstack         a signal handler on an alternate stack of
 *                               8 KiB, above a page it cannot touch, allocates
 *   odd_stacks big-env          a thread of 64 KiB of stack starts true
 *                               with 20,000 environment entries, and the
 *                               main thread execs it with 3,000,000 (which
 *                               fails: too long), then goes on
 *   odd_stacks coroutine        code on a stack of the program's own, just
 *                               below a page it cannot touch, whose top word
 *                               is a return address into a function with a
 *                               frame: a walk that trusts it reads the page
 *                               (as coroutine libraries that plant an exit
 *                               trampoline's address there make it)
 *
 * Each allocates CALLS blocks of a size of its own (see below) and prints
 * what it did; the capture test odd_stacks.sh compares a traced run with
 * a plain one and counts the calls in the trace.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define CALLS	       1000
#define THREAD_SIZE    4321 /* the sizes the test counts */
#define HANDLER_SIZE   4322
#define COROUTINE_SIZE 4323

static void *volatile kept; /* so that no allocation is elided */

static void allocate(size_t size, int n)
{
	for (int i = 0; i < n; i++) {
		kept = malloc(size);
		free(kept);
	}
}

static const char *map_path;

static void *min_thread(void *arg)
{
	(void)arg;
	allocate(THREAD_SIZE, CALLS);
	void *anon = mmap(NULL, 65536, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int fd = open(map_path, O_RDONLY);
	void *file = fd >= 0 ? mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0) : MAP_FAILED;
	void *libm = dlopen("libm.so.6", RTLD_NOW);
	int ok = anon != MAP_FAILED && file != MAP_FAILED && libm;
	if (anon != MAP_FAILED)
		munmap(anon, 65536);
	if (file != MAP_FAILED)
		munmap(file, 4096);
	if (fd >= 0)
		close(fd);
	if (libm)
		dlclose(libm);
	return ok ? arg : (void *)1;
}

static int run_min_thread(const char *path)
{
	map_path = path;
	pthread_attr_t attr;
	pthread_t t;
	void *result = (void *)1;
	if (pthread_attr_init(&attr) || pthread_attr_setstacksize(&attr, PTHREAD_STACK_MIN) ||
	    pthread_create(&t, &attr, min_thread, NULL) || pthread_join(t, &result))
		return 1;
	printf("min-thread: %d calls, maps and a dlopen on %d bytes of stack\n", CALLS,
	       (int)PTHREAD_STACK_MIN);
	return result != NULL;
}

/* n entries of "A=1", from the heap. */
static char **big_env(size_t n)
{
	static char entry[] = "A=1";
	char **env = malloc((n + 1) * sizeof(*env));
	for (size_t i = 0; env && i < n; i++)
		env[i] = entry;
	if (env)
		env[n] = NULL;
	return env;
}

static void *spawn_with_big_env(void *arg)
{
	(void)arg;
	char *argv[] = {"true", NULL}, **env = big_env(20000);
	pid_t pid;
	int status = -1;
	if (!env || posix_spawn(&pid, "/bin/true", NULL, NULL, argv, env) ||
	    waitpid(pid, &status, 0) != pid)
		return (void *)1;
	return status == 0 ? NULL : (void *)1;
}

static int run_big_env(void)
{
	pthread_attr_t attr;
	pthread_t t;
	void *result = (void *)1;
	if (pthread_attr_init(&attr) || pthread_attr_setstacksize(&attr, 64 << 10) ||
	    pthread_create(&t, &attr, spawn_with_big_env, NULL) || pthread_join(t, &result) ||
	    result)
		return 1;
	char *argv[] = {"true", NULL}, **env = big_env(3000000);
	if (!env)
		return 1;
	execve("/bin/true", argv, env);
	printf("big-env: a spawn with 20000 entries; an exec with 3000000 failed: %s\n",
	       strerror(errno));
	return 0;
}

static volatile sig_atomic_t handled;

static void on_signal(int sig)
{
	(void)sig;
	allocate(HANDLER_SIZE, 1); /* not async-signal-safe, yet programs do it */
	handled++;
}

static int run_altstack(void)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), size = 8192;
	uint8_t *m =
		mmap(NULL, page + size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED || mprotect(m, page, PROT_NONE))
		return 1;
	stack_t ss = {.ss_sp = m + page, .ss_size = size};
	struct sigaction sa = {.sa_handler = on_signal, .sa_flags = SA_ONSTACK};
	if (sigaltstack(&ss, NULL) || sigaction(SIGUSR1, &sa, NULL))
		return 1;
	for (int i = 0; i < CALLS; i++)
		raise(SIGUSR1);
	printf("altstack: %d handlers allocated on %zu bytes of stack\n", (int)handled, size);
	return handled != CALLS;
}

static jmp_buf back;

/*
 * The code the coroutine's top word returns to: a frame found from rsp
 * (48 bytes), not from a frame pointer, so that its caller's return
 * address lies above the coroutine's stack, in the page it cannot touch.
 */
__asm__(".text\n"
	".type rsp_frame, @function\n"
	"rsp_frame:\n"
	".cfi_startproc\n"
	"sub $40, %rsp\n"
	".cfi_def_cfa_offset 48\n"
	"call abort@PLT\n"
	"rsp_frame_after_call:\n"
	"add $40, %rsp\n"
	".cfi_def_cfa_offset 8\n"
	"ret\n"
	".cfi_endproc\n"
	".size rsp_frame, .-rsp_frame\n");
extern const char rsp_frame_after_call[];

__attribute__((noinline, used)) static void coroutine(void)
{
	allocate(COROUTINE_SIZE, CALLS);
	longjmp(back, 1);
}

static int run_coroutine(void)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	uint8_t *m =
		mmap(NULL, 3 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED || mprotect(m + 2 * page, page, PROT_NONE))
		return 1;
	uintptr_t *top = (uintptr_t *)(m + 2 * page);
	top[-1] = (uintptr_t)rsp_frame_after_call;
	top[-2] = 0;
	if (!setjmp(back))
		__asm__ volatile("mov %0, %%rsp\n\tjmp coroutine" ::"r"(&top[-1]) : "memory");
	printf("coroutine: %d calls on a stack of the program's own\n", CALLS);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "min-thread"))
		return run_min_thread(argv[2]);
	if (argc == 2 && !strcmp(argv[1], "altstack"))
		return run_altstack();
	if (argc == 2 && !strcmp(argv[1], "big-env"))
		return run_big_env();
	if (argc == 2 && !strcmp(argv[1], "coroutine"))
		return run_coroutine();
	fprintf(stderr, "usage: odd_stacks min-thread FILE | altstack | big-env | coroutine\n");
	return 2;
}
