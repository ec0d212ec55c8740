/*
 * Allocates from a signal handler while its main loop allocates too, so
 * that handler calls land inside the tracer's hooks: the signal-calls
 * test's subject. A 100 µs interval timer's SIGALRM handler maps a page
 * and unmaps the one it mapped 16 signals before: hooked calls that are
 * async-signal-safe. (It once called malloc, which glibc does not allow in
 * a handler: interrupting glibc's own malloc, it hung or aborted the
 * program now and then, traced or not.) The main loop mallocs and frees
 * until the handler has run `signals` times, so how fast this machine is
 * changes only how long that takes.
 *
 * Prints "calls N" on stdout: the hooked calls it made itself,
 * counted as it made them, to compare with the trace. Usage:
 * signal_calls SIGNALS (0: no timer, no loop: the calls libc makes alone).
 */
#define _DEFAULT_SOURCE /* sigaction, setitimer */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <unistd.h>

static volatile sig_atomic_t handled;
static volatile long handler_calls;
static void *kept[16];

static void on_alarm(int sig)
{
	(void)sig;
	size_t slot = (size_t)handled % 16;
	if (kept[slot]) {
		munmap(kept[slot], 4096);
		handler_calls++;
	}
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	kept[slot] = p == MAP_FAILED ? NULL : p;
	handler_calls++;
	handled++;
}

int main(int argc, char **argv)
{
	long signals = argc > 1 ? atol(argv[1]) : 0;
	long main_calls = 0;
	if (signals > 0) {
		struct sigaction sa;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_alarm;
		sa.sa_flags = SA_RESTART;
		sigaction(SIGALRM, &sa, NULL);
		struct itimerval every = {{0, 100}, {0, 100}};
		setitimer(ITIMER_REAL, &every, NULL);
		void *volatile sink;
		while (handled < signals) {
			sink = malloc(32);
			free(sink);
			main_calls += 2;
		}
		struct itimerval off = {{0, 0}, {0, 0}};
		setitimer(ITIMER_REAL, &off, NULL);
		/* A signal still pending would run the handler after the count. */
		sigset_t alarm;
		sigemptyset(&alarm);
		sigaddset(&alarm, SIGALRM);
		sigprocmask(SIG_BLOCK, &alarm, NULL);
	}
	char line[64];
	int n = snprintf(line, sizeof(line), "calls %ld\n", main_calls + handler_calls);
	return write(1, line, (size_t)n) == n ? 0 : 1;
}
