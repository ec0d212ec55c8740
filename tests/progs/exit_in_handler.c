/*
 * Ends from a signal handler that runs while the thread is inside one of
 * the tracer's hooks: the exit_in_handler test's subject. It allocates
 * CALLS blocks of SIZE bytes, then calls mremap, which the library
 * mremap_signal (preloaded after libgittrace.so) makes raise SIGUSR1
 * first: the handler runs inside the tracer's mremap hook, as a timer's
 * can inside any hook, and ends the process by MODE:
 *   exit        exit(5); an atexit handler allocates SIZE bytes once more
 *   _exit       _exit(6)
 *   quick_exit  quick_exit(7)
 * The hook never resumed, and its guard kept the image from ending: no
 * END, and the calls not yet written lost.
 *
 * usage: exit_in_handler MODE
 */
#define _GNU_SOURCE /* mremap */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define CALLS 1000
#define SIZE  5231 /* the size the test counts in the trace */

static void *volatile kept; /* so that no allocation is elided */
static const char *mode = "";

static void allocate_once_more(void)
{
	kept = malloc(SIZE);
}

static void end_here(int sig)
{
	(void)sig;
	if (!strcmp(mode, "exit"))
		exit(5);
	if (!strcmp(mode, "_exit"))
		_exit(6);
	if (!strcmp(mode, "quick_exit"))
		quick_exit(7);
}

int main(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	mode = argv[1];
	atexit(allocate_once_more);
	signal(SIGUSR1, end_here);
	for (int i = 0; i < CALLS; i++) {
		kept = malloc(SIZE);
		free(kept);
	}
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 3;
	mremap(p, 4096, 8192, MREMAP_MAYMOVE); /* the handler ends the process in here */
	return 4;
}
