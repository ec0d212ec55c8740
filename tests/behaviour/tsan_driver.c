/*
 * tsan_driver: the preload's own code under ThreadSanitizer.
 *
 * TSan cannot watch the preload as an LD_PRELOAD library: a hook named
 * malloc interposes on TSan's runtime too, and the runtime's first
 * allocation (during its own start-up, through dlsym) enters instrumented
 * hook code before TSan can track anything, which crashes. So the test
 * builds the preload's sources with -fsanitize=thread into a static
 * archive whose hooks are renamed gt_tsan_<name> (objcopy; the list comes
 * from preload/hooks.def), links it into this program, and calls the hooks
 * by those names: the tracer (stream, stacks, writer, fork handling, image
 * end) runs instrumented, while the real functions it finds with
 * dlsym(RTLD_NEXT) are TSan's interceptors.
 *
 * Workers call every allocation and mapping hook while a thread comes and
 * goes without pause and another forks children that call hooks and end
 * through the exit and _exit hooks (the workers go on until the last fork). Because only the
 * explicit calls reach the hooks, a trace of the run holds exactly the calls counted here.
 *
 * A thread that recorded a stack must not end under TSan: libunwind frees
 * its per-thread cache in a pthread key destructor, which runs after TSan
 * has let go of the thread and crashes TSan's mutex interceptor
 * (google/sanitizers#943). So with stacks (--threads-never-end) no thread
 * that calls a hook ends: there is no coming and going thread, and the
 * workers park until exit; the thread-exit paths run in counting mode
 * (GITTRACE_STACK_DEPTH=0) only.
 *
 * usage: tsan_driver ITERATIONS FORKS [--threads-never-end]
 * Prints "tsan_driver: N calls, F forks, C calls per fork"; exit 0 when
 * every child exited 0.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

void *gt_tsan_malloc(size_t size);
void *gt_tsan_calloc(size_t nmemb, size_t size);
void *gt_tsan_realloc(void *ptr, size_t size);
void gt_tsan_free(void *ptr);
int gt_tsan_posix_memalign(void **memptr, size_t alignment, size_t size);
void *gt_tsan_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t offset);
void *gt_tsan_mremap(void *old_addr, size_t old_len, size_t new_len, int flags, ...);
int gt_tsan_munmap(void *addr, size_t len);
void gt_tsan_exit(int status) __attribute__((noreturn));
void gt_tsan__exit(int status) __attribute__((noreturn));

#define N_WORKERS	4
#define CALLS_PER_ROUND 10 /* hooks called by one round_of_calls() */
#define CALLS_PER_FORK	2

static atomic_int stop, parked, forks_done;
static atomic_long calls;
static int iterations, nforks, threads_never_end;
static pthread_mutex_t park_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t never = PTHREAD_COND_INITIALIZER;

/* One round of every allocation and mapping hook: CALLS_PER_ROUND calls. */
static void round_of_calls(unsigned r)
{
	char *a = gt_tsan_malloc(16 + r % 500);
	char *b = gt_tsan_calloc(4, 32 + r % 64);
	b = gt_tsan_realloc(b, 1000 + r % 3000);
	void *c = NULL;
	if (gt_tsan_posix_memalign(&c, 64, 128))
		c = NULL;
	if (a)
		a[0] = 1;
	gt_tsan_free(a);
	gt_tsan_free(b);
	gt_tsan_free(c);
	char *m = gt_tsan_mmap(NULL, 65536, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
			       0);
	char *g = gt_tsan_mremap(m, 65536, 131072, MREMAP_MAYMOVE);
	gt_tsan_munmap(g == MAP_FAILED ? m : g, g == MAP_FAILED ? 65536 : 131072);
	atomic_fetch_add(&calls, CALLS_PER_ROUND);
}

static void *worker(void *arg)
{
	unsigned seed = (unsigned)(size_t)arg;
	/* At least ITERATIONS rounds, and on while children are forked. */
	for (int i = 0; i < iterations || !atomic_load(&forks_done); i++)
		round_of_calls(seed = seed * 1103515245u + 12345u);
	if (threads_never_end) {
		pthread_mutex_lock(&park_lock);
		atomic_fetch_add(&parked, 1);
		for (;;) /* until exit() */
			pthread_cond_wait(&never, &park_lock);
	}
	return NULL;
}

static void *short_lived(void *arg)
{
	round_of_calls((unsigned)(size_t)arg);
	return NULL;
}

/* Threads that begin and end while everything else runs. */
static void *spawner(void *arg)
{
	(void)arg;
	for (size_t n = 0; !atomic_load(&stop); n++) {
		pthread_t t;
		if (pthread_create(&t, NULL, short_lived, (void *)n) == 0)
			pthread_join(t, NULL);
	}
	return NULL;
}

/* Children end alternately through the exit and the _exit hook. */
static void *forker(void *arg)
{
	(void)arg;
	long failed = 0;
	for (int i = 0; i < nforks; i++) {
		pid_t pid = fork();
		if (pid == 0) {
			gt_tsan_free(gt_tsan_malloc(100)); /* CALLS_PER_FORK */
			if (i % 2)
				gt_tsan_exit(0);
			gt_tsan__exit(0);
		}
		int status;
		if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			failed++;
	}
	atomic_store(&forks_done, 1);
	return (void *)failed;
}

int main(int argc, char **argv)
{
	pthread_t workers[N_WORKERS], spawn, fork_thread;
	void *failed;

	threads_never_end = argc == 4 && strcmp(argv[3], "--threads-never-end") == 0;
	iterations = argc == 3 || threads_never_end ? atoi(argv[1]) : 0;
	nforks = argc == 3 || threads_never_end ? atoi(argv[2]) : -1;
	if (iterations <= 0 || nforks < 0) {
		fprintf(stderr, "usage: tsan_driver ITERATIONS FORKS [--threads-never-end]\n");
		return 2;
	}
	/* The forking thread calls no hook itself: it may end either way. */
	if ((!threads_never_end && pthread_create(&spawn, NULL, spawner, NULL)) ||
	    pthread_create(&fork_thread, NULL, forker, NULL))
		return 1;
	for (size_t i = 0; i < N_WORKERS; i++)
		if (pthread_create(&workers[i], NULL, worker, (void *)(i + 1)))
			return 1;
	if (threads_never_end) {
		while (atomic_load(&parked) < N_WORKERS)
			usleep(1000);
	} else {
		for (int i = 0; i < N_WORKERS; i++)
			pthread_join(workers[i], NULL);
	}
	pthread_join(fork_thread, &failed);
	atomic_store(&stop, 1);
	if (!threads_never_end)
		pthread_join(spawn, NULL);
	if (failed) {
		fprintf(stderr, "tsan_driver: %ld children failed\n", (long)failed);
		return 1;
	}
	printf("tsan_driver: %ld calls, %d forks, %d calls per fork\n", atomic_load(&calls), nforks,
	       CALLS_PER_FORK);
	return 0;
}
