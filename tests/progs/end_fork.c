/*
 * A signal handler that forks while the tracer writes the image's END:
 * the end_fork cases of the image_ends test. The program interposes
 * getrusage, which the tracer calls for the END, and raises SIGUSR1 there
 * once; the handler forks, and the parent waits in it for the child. Both
 * go on with the END and end with status 5: the child, past its last
 * hook, must still be an image of its own (it was missing).
 *
 *   end_fork _exit   the program ends with _exit(5): a fork deferred in
 *                    the _exit hook
 *   end_fork exit    exit(5): the END comes after the tracer's finalizer,
 *                    when glibc has dropped its fork handlers
 */
#define _GNU_SOURCE /* RTLD_NEXT */
#include <dlfcn.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static void *volatile kept;
static volatile sig_atomic_t armed;

int getrusage(int who, struct rusage *usage)
{
	static int (*real)(int, struct rusage *);
	if (!real)
		real = (int (*)(int, struct rusage *))dlsym(RTLD_NEXT, "getrusage");
	Dl_info caller;
	if (armed && dladdr(__builtin_return_address(0), &caller) && caller.dli_fname &&
	    strstr(caller.dli_fname, "libgittrace")) {
		armed = 0;
		raise(SIGUSR1);
	}
	return real(who, usage);
}

static void fork_now(int sig)
{
	(void)sig;
	pid_t child = fork();
	if (child > 0)
		waitpid(child, NULL, 0);
}

int main(int argc, char **argv)
{
	signal(SIGUSR1, fork_now);
	for (int i = 0; i < 1000; i++) {
		kept = malloc(1111);
		free(kept);
	}
	armed = 1;
	if (argc == 2 && !strcmp(argv[1], "exit"))
		exit(5);
	_exit(5);
}
