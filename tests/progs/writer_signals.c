/*
 * writer_signals: a program whose signals must stay its own while the
 * tracer's writer thread runs (preload/writer_thread.c).
 *
 * It allocates until its process has a second thread (the tracer's, which
 * starts when a first block is handed over: never without the preload),
 * for at most 20 M calls. Only then (a thread inherits its creator's mask)
 * it blocks SIGUSR1, sends it to itself, waits a second and unblocks it.
 * A thread that does not block the signal would take it in that second;
 * blocked in every thread, it waits for this one. It prints
 *   threads: N                          (the most seen at once)
 *   handled on the main thread: yes|no|never
 * and exits 0.
 *
 * usage: writer_signals
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define MAX_CALLS   20000000L
#define CHECK_EVERY 4096L

static volatile sig_atomic_t handled;
static volatile pid_t handler_tid;

static void on_usr1(int sig)
{
	(void)sig;
	handler_tid = (pid_t)syscall(SYS_gettid);
	handled = 1;
}

/* The Threads: line of /proc/self/status. */
static int threads_now(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	int n = 0;
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "Threads:", 8))
			n = atoi(line + 8);
	if (f)
		fclose(f);
	return n;
}

int main(void)
{
	sigset_t usr1, old;
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);

	int most = threads_now();
	for (long i = 1; i <= MAX_CALLS && most < 2; i++) {
		free(malloc(32));
		if (i % CHECK_EVERY == 0) {
			int n = threads_now();
			most = n > most ? n : most;
		}
	}
	sigprocmask(SIG_BLOCK, &usr1, &old);
	kill(getpid(), SIGUSR1);
	/*
	 * Blocked here, only another thread can take it: one that does not
	 * block it gets a second to. Once unblocked, it is handled at once.
	 */
	struct timespec ms = {0, 1000000};
	for (int i = 0; i < 1000 && !handled; i++)
		nanosleep(&ms, NULL);
	sigprocmask(SIG_SETMASK, &old, NULL);
	for (int i = 0; i < 10000 && !handled; i++)
		nanosleep(&ms, NULL);
	printf("threads: %d\n", most);
	printf("handled on the main thread: %s\n", !handled		     ? "never"
						   : handler_tid == getpid() ? "yes"
									     : "no");
	return 0;
}
