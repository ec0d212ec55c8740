/*
 * Forks through syscall(), as systemd's raw_clone does, or glibc's
 * clone(), which run no pthread_atfork handler: the raw_fork test's
 * subject. The parent
 * allocates PARENT_CALLS blocks before the fork and AFTER_CALLS after the
 * child ended; the child CHILD_CALLS, then exits with status 7. The
 * parent prints how the child ended. Each count has a size of its own
 * that the test counts in the trace.
 *
 *   raw_fork          syscall(SYS_clone, SIGCHLD, 0, ...)
 *   raw_fork threads  the same while another thread allocates without pause
 *   raw_fork fork     syscall(SYS_fork)
 *   raw_fork _Fork    glibc's _Fork(), a fork without pthread_atfork handlers
 *   raw_fork waits    CLONE_VFORK (not CLONE_VM): the parent waits until
 *                     the child exits, and the child waits for a thread of
 *                     the parent that allocates meanwhile (the tracer must
 *                     not hold its fork guard across that wait: it hung)
 *   raw_fork settls   CLONE_SETTLS: the child has a thread pointer of its
 *                     own, makes no call of libc and exits through the
 *                     system call (the tracer's code would crash there)
 *   raw_fork loader_busy  fork() while another thread holds the loader's
 *                     lock, in dl_iterate_phdr (glibc's fork does not
 *                     reset it: the tracer's child asked for it and hung)
 *   raw_fork libc_clone       clone(fn, stack, SIGCHLD, ...): fn returns 7
 *                             (glibc ends the child with the exit system call)
 *   raw_fork libc_clone_exit  the same, fn calls exit(7)
 *   raw_fork libc_clone_thread  fn starts a thread and returns 7: the
 *                     thread goes on (glibc's exit system call ends the
 *                     first thread only), prints, and its end ends the
 *                     process, with status 0
 *   raw_fork no_function  clone(NULL, ...): fails with EINVAL
 *   raw_fork clone3   syscall(SYS_clone3) with SIGCHLD only, which no hook
 *                     sees (the tracer notices its child by the fork mark)
 *   raw_fork clone3_threads  the same while another thread allocates
 *   raw_fork atfork   fork() three times, one child after the other (with
 *                     early_lib's handlers: GITTRACE_TEST_EARLY=atfork)
 *   raw_fork signal_fork  fork() from a SIGALRM handler, 1–2 ms into a loop
 *                     of allocations: often while the thread is in a hook
 *                     (the child went on with its parent's stream)
 *   raw_fork signal_fork_threads  the same while another thread allocates
 *                     (the child waited forever for the stream's lock)
 *   raw_fork signal_exit  the same, and the child calls _exit(7) in the
 *                     handler, without a call of its own
 */
#define _GNU_SOURCE /* syscall, CLONE_* */
#include <link.h>
#include <pthread.h>
#include <sched.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PARENT_CALLS 1000 /* of 1111 bytes */
#define CHILD_CALLS  500  /* of 2222 bytes */
#define AFTER_CALLS  300  /* of 3333 bytes */

static void *volatile kept; /* so that no allocation is elided */
static volatile int stop;
static int ask[2], answer[2]; /* the waits case's pipes */
static char child_tls[1 << 16] __attribute__((aligned(64)));
static char child_stack[1 << 18] __attribute__((aligned(64))); /* libc_clone's */

static void allocate(int n, size_t size)
{
	for (int i = 0; i < n; i++) {
		kept = malloc(size);
		free(kept);
	}
}

/* Blocks of another size, so that the stream is busy at the fork. */
static void *churn(void *unused)
{
	(void)unused;
	while (!stop) {
		void *p = malloc(64);
		free(p);
	}
	return NULL;
}

/* Holds the loader's lock a while for each module. */
static int hold_loader(struct dl_phdr_info *info, size_t size, void *unused)
{
	(void)info;
	(void)size;
	(void)unused;
	struct timespec pause = {0, 200000};
	nanosleep(&pause, NULL);
	return stop;
}

/* In the loader's lock nearly all the time, until stop. */
static void *iterate_modules(void *unused)
{
	(void)unused;
	while (!stop)
		dl_iterate_phdr(hold_loader, NULL);
	return NULL;
}

/* Answers the vfork-like child once, after an allocation of its own. */
static void *answer_child(void *unused)
{
	(void)unused;
	char c;
	if (read(ask[0], &c, 1) != 1)
		return NULL;
	free(strdup("an allocation from frames not walked before"));
	if (write(answer[1], "y", 1) != 1)
		return NULL;
	return NULL;
}

static void child(const char *mode);

/* libc_clone_thread's thread: outlives the child's first thread. */
static void *outlive(void *unused)
{
	(void)unused;
	struct timespec pause = {0, 100000000};
	nanosleep(&pause, NULL);
	static const char done[] = "thread done\n";
	if (write(1, done, sizeof(done) - 1) < 0)
		return NULL;
	return NULL;
}

/* libc_clone's function, on child_stack. */
static int child_function(void *mode)
{
	pthread_t thread;
	if (!strcmp(mode, "libc_clone_thread") && pthread_create(&thread, NULL, outlive, NULL))
		return 2;
	allocate(CHILD_CALLS, 2222);
	if (!strcmp(mode, "libc_clone_exit"))
		child(mode);
	return 7;
}

static volatile sig_atomic_t signal_forked;
static volatile pid_t signal_child = -1;
static int exit_in_handler; /* signal_exit */

static void fork_on_alarm(int sig)
{
	(void)sig;
	if (!signal_forked) {
		signal_child = fork();
		if (signal_child == 0 && exit_in_handler)
			_exit(7);
		signal_forked = 1;
	}
}

/* Allocates until the timer's handler has forked; what fork returned. */
static pid_t fork_from_handler(void)
{
	struct sigaction on_alarm = {.sa_handler = fork_on_alarm};
	if (sigaction(SIGALRM, &on_alarm, NULL))
		return -1;
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	struct itimerval once = {.it_value = {0, 1000 + now.tv_nsec / 1000 % 1000}};
	if (setitimer(ITIMER_REAL, &once, NULL))
		return -1;
	while (!signal_forked)
		free(kept = malloc(100));
	return signal_child;
}

/* The first fields of the kernel's struct clone_args (CLONE_ARGS_SIZE_VER0). */
struct clone3_args {
	uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls;
};

static long clone_as(const char *mode)
{
	if (!strncmp(mode, "signal_", 7)) {
		exit_in_handler = !strcmp(mode, "signal_exit");
		return fork_from_handler();
	}
	if (!strncmp(mode, "clone3", 6)) {
		struct clone3_args args = {.exit_signal = SIGCHLD};
		return syscall(SYS_clone3, &args, sizeof(args));
	}
	if (!strncmp(mode, "libc_clone", 10))
		return clone(child_function, child_stack + sizeof(child_stack), SIGCHLD,
			     (void *)mode);
	if (!strcmp(mode, "fork"))
		return syscall(SYS_fork);
	if (!strcmp(mode, "loader_busy") || !strcmp(mode, "atfork"))
		return fork();
	if (!strcmp(mode, "_Fork"))
		return _Fork();
	if (!strcmp(mode, "waits"))
		return syscall(SYS_clone, CLONE_VFORK | SIGCHLD, 0, 0, 0, 0);
	if (!strcmp(mode, "settls"))
		return syscall(SYS_clone, CLONE_SETTLS | SIGCHLD, 0, 0, 0,
			       child_tls + sizeof(child_tls) / 2);
	return syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0);
}

static void child(const char *mode)
{
	if (!strcmp(mode, "settls")) {
		long ret;
		__asm__ volatile("syscall"
				 : "=a"(ret)
				 : "a"((long)SYS_exit_group), "D"(7L)
				 : "rcx", "r11", "memory");
	}
	if (strcmp(mode, "libc_clone_exit"))
		allocate(CHILD_CALLS, 2222);
	if (!strcmp(mode, "waits")) {
		char c;
		if (write(ask[1], "x", 1) != 1 || read(answer[0], &c, 1) != 1)
			_exit(5);
	}
	exit(7);
}

int main(int argc, char **argv)
{
	const char *mode = argc == 2 ? argv[1] : "";
	if (!strcmp(mode, "no_function")) {
		errno = 0;
		int ret = clone(NULL, child_stack + sizeof(child_stack), SIGCHLD, NULL);
		printf("clone %d, errno %d\n", ret, errno);
		return 0;
	}
	pthread_t other;
	int busy_loader = !strcmp(mode, "loader_busy");
	int threads = !strcmp(mode, "threads") || !strcmp(mode, "clone3_threads") ||
		      !strcmp(mode, "signal_fork_threads") || !strcmp(mode, "waits") || busy_loader;
	if (!strcmp(mode, "waits") && (pipe(ask) || pipe(answer)))
		return 2;
	/* The loader's lock is busy from after the parent's calls (which may
	 * ask the loader for new code's modules) to the fork. */
	if (busy_loader)
		allocate(PARENT_CALLS, 1111);
	/* The signal cases' handler forks in the main thread, which the child
	 * then is (a copy of another thread's endless loop would never end):
	 * the other thread starts with SIGALRM blocked. */
	sigset_t alarm;
	sigemptyset(&alarm);
	sigaddset(&alarm, SIGALRM);
	pthread_sigmask(SIG_BLOCK, &alarm, NULL);
	if (threads && pthread_create(&other, NULL,
				      !strcmp(mode, "waits") ? answer_child
				      : busy_loader	     ? iterate_modules
							     : churn,
				      NULL))
		return 2;
	pthread_sigmask(SIG_UNBLOCK, &alarm, NULL);
	if (busy_loader) {
		struct timespec start = {0, 10000000}; /* into its first iteration */
		nanosleep(&start, NULL);
	} else {
		allocate(PARENT_CALLS, 1111);
	}
	int status = 0;
	for (int forks = !strcmp(mode, "atfork") ? 3 : 1; forks; forks--) {
		long pid = clone_as(mode);
		if (pid < 0)
			return 3;
		if (pid == 0)
			child(mode);
		if (waitpid((pid_t)pid, &status, 0) != pid)
			return 4;
	}
	allocate(AFTER_CALLS, 3333);
	if (threads) {
		stop = 1;
		pthread_join(other, NULL);
	}
	if (WIFEXITED(status))
		printf("child status %d\n", WEXITSTATUS(status));
	else
		printf("child signal %d\n", WTERMSIG(status));
	return 0;
}
