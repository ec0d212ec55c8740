/*
 * A thread with a cancellation request pending calls functions that are
 * no cancellation points (malloc, free, fork, exec, exit, _exit): it must
 * not act on the request inside them, traced or not. MODE:
 *   loop   a thread cancelled before it makes CALLS malloc/free pairs, then
 *          reaches pthread_testcancel; the main thread joins it
 *   fork   a cancelled thread forks; the child says so and ends with 5
 *   exec   the cancelled main thread execs this program as "exec-target"
 *   exit   the cancelled main thread calls exit(4)
 *   _exit  the cancelled main thread calls _exit(6)
 * Every malloc here asks for 5233 bytes, for the test to count.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define BYTES 5233

static long calls;

static void allocate_once(void)
{
	void *volatile p = malloc(BYTES);
	free(p);
}

static void *loop(void *arg)
{
	(void)arg;
	pthread_cancel(pthread_self()); /* pending until a cancellation point */
	for (long i = 0; i < calls; i++)
		allocate_once();
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, NULL);
	printf("the thread made its %ld calls\n", calls);
	fflush(stdout);
	pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, NULL);
	pthread_testcancel();
	return NULL;
}

static void *fork_cancelled(void *arg)
{
	(void)arg;
	pthread_cancel(pthread_self());
	pid_t child = fork();
	if (child == 0) {
		pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, NULL);
		allocate_once();
		printf("the child runs\n");
		fflush(stdout);
		_exit(5);
	}
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, NULL);
	int status = 0;
	waitpid(child, &status, 0);
	printf("the child ended with %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	return NULL;
}

static void join(void *(*start)(void *))
{
	pthread_t t;
	void *ret;
	if (pthread_create(&t, NULL, start, NULL) || pthread_join(t, &ret))
		exit(2);
	printf("joined; cancelled: %s\n", ret == PTHREAD_CANCELED ? "yes" : "no");
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	const char *mode = argv[1];
	allocate_once();
	if (!strcmp(mode, "exec-target")) {
		printf("exec ran\n");
		return 0;
	}
	if (!strcmp(mode, "loop")) {
		calls = argc > 2 ? atol(argv[2]) : 100000;
		join(loop);
		return 0;
	}
	if (!strcmp(mode, "fork")) {
		join(fork_cancelled);
		return 0;
	}
	fflush(stdout);
	pthread_cancel(pthread_self());
	if (!strcmp(mode, "exec"))
		execl(argv[0], argv[0], "exec-target", (char *)NULL);
	else if (!strcmp(mode, "exit"))
		exit(4);
	else if (!strcmp(mode, "_exit"))
		_exit(6);
	return 3;
}
