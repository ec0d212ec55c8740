/*
 * The subject of capture.killed_by_signal: what a program sees of the
 * actions of the signals the tracer catches (preload/hooks_signal.c), and
 * how it dies of them. Usage: signal_actions MODE
 *   actions  prints each action it reads while it sets and resets those
 *            signals (and SIGABRT, which the tracer leaves alone) through
 *            sigaction and signal; exits 0
 *   pipe     makes its allocations, then writes into a pipe with no
 *            reader: killed by SIGPIPE
 *   wait     makes its allocations, prints "ready", waits to be killed
 *   many     makes its allocations MANY_ROUNDS times (enough for several
 *            blocks of the smallest trace buffer); exits 0
 *   ignored  ignores SIGTERM, raises it, prints "survived"; exits 0
 *   handled  its own SIGINT handler runs once; then signal(SIGINT, SIG_DFL)
 *            and SIGINT again: killed by SIGINT
 *   race     two threads set SIGINT's action at once, one the default, the
 *            other a handler, RACE_ROUNDS times: where the handler's call
 *            read the default as the action before, it came last, and the
 *            handler must stand. Prints "race: N wrong of ROUNDS". (The
 *            tracer's hooks once set the default and put their catcher in
 *            two steps, between which the handler was lost.)
 *   init     forks a child into a new pid namespace, whose init (pid 1) it
 *            is; once the child sleeps, sends it SIGTERM, which an init
 *            ignores at the default action: the child sleeps its second,
 *            then forks a child of its own, no init, which makes its
 *            allocations and raises SIGTERM: killed by it. Prints the
 *            init's sleep, its child's end and its own. Exits 77 where no
 *            pid namespace can be made. (The tracer's catcher once took
 *            SIGTERM in the init and cut the sleep short; and the init's
 *            child had none, its calls lost.)
 *   init-raw as init, each fork made with syscall(SYS_fork), which runs no
 *            fork handler (the tracer's own hook of syscall() stands in)
 *   threads  as many, with a second thread that waits meanwhile
 *   forker   as threads, and a SIGUSR1 handler that forks: the child goes
 *            on with the parent's work and prints "the handler's child
 *            reached the end" (the parent, unless a signal ends it)
 *   vforker  as threads, and a SIGUSR1 handler that vforks a child that
 *            raises SIGTERM (or _exits 7), and prints how the child ended
 *   second   as threads, and a SIGUSR1 handler that raises SIGINT
 * Its allocations: ALLOCATIONS malloc and free pairs of its own, so that a
 * trace of it has at least that many calls of each.
 */
#define _GNU_SOURCE /* sighandler_t, unshare */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define ALLOCATIONS 1000
#define RACE_ROUNDS 50000
#define MANY_ROUNDS 200

static void allocate(void)
{
	for (int i = 0; i < ALLOCATIONS; i++) {
		char *volatile p = malloc(64 + (size_t)i % 512);
		if (!p)
			exit(2);
		free(p);
	}
}

static volatile sig_atomic_t handler_child;

static void fork_in_handler(int sig)
{
	(void)sig;
	if (fork() == 0)
		handler_child = 1;
}

static void vfork_in_handler(int sig)
{
	(void)sig;
	pid_t child = vfork();
	if (child == 0) {
		raise(SIGTERM);
		_exit(7);
	}
	int status = 0;
	if (child > 0)
		waitpid(child, &status, 0);
	const char *how = WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM
				  ? "the handler's vfork child: killed by SIGTERM\n"
				  : "the handler's vfork child: not killed by SIGTERM\n";
	(void)!write(1, how, strlen(how));
}

static void raise_int(int sig)
{
	(void)sig;
	raise(SIGINT);
}

static void *wait_forever(void *unused)
{
	(void)unused;
	for (;;)
		pause();
	return NULL;
}

static const char *kind(sighandler_t h)
{
	return h == SIG_DFL   ? "default"
	       : h == SIG_IGN ? "ignore"
	       : h == SIG_ERR ? "error"
			      : "handler";
}

static const char *action_kind(const struct sigaction *a)
{
	if (a->sa_flags & SA_SIGINFO)
		return a->sa_sigaction ? "handler" : "default";
	return kind(a->sa_handler);
}

static volatile sig_atomic_t handled;

static void on_signal(int sig)
{
	(void)sig;
	handled++;
}

static void on_signal_info(int sig, siginfo_t *info, void *context)
{
	(void)info;
	(void)context;
	on_signal(sig);
}

/* An action as sigaction reads it: handler, flags and blocked signals 1-31. */
static void show(const char *when, int sig)
{
	struct sigaction a;
	if (sigaction(sig, NULL, &a)) {
		printf("  %s: sigaction failed\n", when);
		return;
	}
	unsigned long mask = 0;
	for (int s = 1; s < 32; s++)
		if (sigismember(&a.sa_mask, s))
			mask |= 1ul << s;
	printf("  %s: %s flags=%#x mask=%#lx\n", when, action_kind(&a), (unsigned)a.sa_flags, mask);
}

static void actions(int sig)
{
	printf("%s\n", strsignal(sig));
	struct sigaction first;
	sigaction(sig, NULL, &first);
	show("at start", sig);
	printf("  signal(ignore) returned %s\n", kind(signal(sig, SIG_IGN)));
	printf("  signal(default) returned %s\n", kind(signal(sig, SIG_DFL)));
	show("after signal(default)", sig);
	struct sigaction custom = {.sa_sigaction = on_signal_info, .sa_flags = SA_SIGINFO}, old;
	sigemptyset(&custom.sa_mask);
	sigaddset(&custom.sa_mask, SIGUSR2);
	sigaction(sig, &custom, &old);
	printf("  sigaction(handler) returned %s\n", action_kind(&old));
	show("with a handler", sig);
	raise(sig);
	printf("  the handler ran %d time(s)\n", (int)handled);
	handled = 0;
	struct sigaction dfl = {.sa_handler = SIG_DFL, .sa_flags = SA_NODEFER};
	sigemptyset(&dfl.sa_mask);
	sigaddset(&dfl.sa_mask, SIGCHLD);
	sigaction(sig, &dfl, &old);
	printf("  sigaction(default) returned %s\n", action_kind(&old));
	show("after sigaction(default)", sig);
	sigaction(sig, &first, NULL);
	show("back to the first", sig);
}

static pthread_barrier_t turn;

/* The race's other thread: the default, once a round. */
static void *set_default(void *unused)
{
	(void)unused;
	struct sigaction dfl = {.sa_handler = SIG_DFL};
	for (int i = 0; i < RACE_ROUNDS; i++) {
		pthread_barrier_wait(&turn);
		sigaction(SIGINT, &dfl, NULL);
		pthread_barrier_wait(&turn);
		pthread_barrier_wait(&turn);
	}
	return NULL;
}

static int race(void)
{
	pthread_t other;
	pthread_barrier_init(&turn, NULL, 2);
	if (pthread_create(&other, NULL, set_default, NULL))
		return 2;
	int wrong = 0;
	struct sigaction start = {.sa_handler = on_signal},
			 mine = {.sa_sigaction = on_signal_info, .sa_flags = SA_SIGINFO};
	for (int i = 0; i < RACE_ROUNDS; i++) {
		sigaction(SIGINT, &start, NULL);
		pthread_barrier_wait(&turn);
		struct sigaction before, now;
		sigaction(SIGINT, &mine, &before);
		pthread_barrier_wait(&turn);
		sigaction(SIGINT, NULL, &now);
		wrong += !(before.sa_flags & SA_SIGINFO) && before.sa_handler == SIG_DFL &&
			 now.sa_sigaction != on_signal_info;
		pthread_barrier_wait(&turn);
	}
	pthread_join(other, NULL);
	printf("race: %d wrong of %d\n", wrong, RACE_ROUNDS);
	return 0;
}

/* Whether the process pid sleeps (its state in /proc/PID/stat). */
static int sleeping(pid_t pid)
{
	char path[64], state = 0;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "r");
	if (f) {
		/* pid (comm) state ...: comm may hold spaces and parentheses */
		char line[512];
		if (fgets(line, sizeof(line), f)) {
			char *close = strrchr(line, ')');
			if (close && close[1] == ' ')
				state = close[2];
		}
		fclose(f);
	}
	return state == 'S';
}

static pid_t fork_as(int raw)
{
	return raw ? (pid_t)syscall(SYS_fork) : fork();
}

static int init_child(int raw)
{
	/* As root, or else in a user namespace of its own. */
	if (unshare(CLONE_NEWPID) && unshare(CLONE_NEWUSER | CLONE_NEWPID)) {
		printf("no pid namespace here: %s\n", strerror(errno));
		return 77;
	}
	int ready[2];
	if (pipe(ready))
		return 2;
	pid_t child = fork_as(raw);
	if (child < 0)
		return 2;
	if (!child) {
		allocate();
		struct timespec second = {1, 0};
		(void)!write(ready[1], "r", 1);
		int r = nanosleep(&second, NULL);
		printf("init: pid %d, its sleep %s\n", (int)getpid(),
		       r ? strerror(errno) : "lasted a second");
		pid_t own = fork_as(raw);
		if (!own) {
			allocate();
			raise(SIGTERM);
			_exit(3); /* not reached */
		}
		int status;
		if (own < 0 || waitpid(own, &status, 0) != own)
			_exit(2);
		printf("init's child: %s %d\n", WIFSIGNALED(status) ? "killed by signal" : "exit",
		       WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
		_exit(0);
	}
	char r;
	if (read(ready[0], &r, 1) != 1)
		return 2;
	/* Past its write, the child sleeps only in nanosleep. */
	while (!sleeping(child))
		usleep(1000);
	kill(child, SIGTERM);
	int status;
	if (waitpid(child, &status, 0) != child)
		return 2;
	printf("init: %s %d\n", WIFSIGNALED(status) ? "killed by signal" : "exit",
	       WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc == 2 ? argv[1] : "";
	setvbuf(stdout, NULL, _IONBF, 0);
	if (!strcmp(mode, "actions")) {
		const int sigs[] = {SIGHUP, SIGINT, SIGQUIT, SIGPIPE, SIGTERM, SIGXFSZ, SIGABRT};
		for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
			actions(sigs[i]);
		return 0;
	}
	if (!strcmp(mode, "pipe")) {
		int fds[2];
		if (pipe(fds))
			return 2;
		close(fds[0]);
		allocate();
		(void)!write(fds[1], "x", 1);
		return 3; /* not reached: SIGPIPE */
	}
	if (!strcmp(mode, "wait")) {
		allocate();
		printf("ready\n");
		for (;;)
			pause();
	}
	if (!strcmp(mode, "many") || !strcmp(mode, "threads") || !strcmp(mode, "forker") ||
	    !strcmp(mode, "vforker") || !strcmp(mode, "second")) {
		pthread_t waiter;
		if (!strcmp(mode, "forker"))
			signal(SIGUSR1, fork_in_handler);
		if (!strcmp(mode, "vforker"))
			signal(SIGUSR1, vfork_in_handler);
		if (!strcmp(mode, "second"))
			signal(SIGUSR1, raise_int);
		if (strcmp(mode, "many") && pthread_create(&waiter, NULL, wait_forever, NULL))
			return 2;
		for (int i = 0; i < MANY_ROUNDS; i++)
			allocate();
		if (handler_child)
			printf("the handler's child reached the end\n");
		return 0;
	}
	if (!strcmp(mode, "ignored")) {
		signal(SIGTERM, SIG_IGN);
		allocate();
		raise(SIGTERM);
		printf("survived\n");
		return 0;
	}
	if (!strcmp(mode, "race"))
		return race();
	if (!strcmp(mode, "init") || !strcmp(mode, "init-raw"))
		return init_child(!strcmp(mode, "init-raw"));
	if (!strcmp(mode, "handled")) {
		signal(SIGINT, on_signal);
		raise(SIGINT);
		printf("the handler ran %d time(s)\n", (int)handled);
		signal(SIGINT, SIG_DFL);
		allocate();
		raise(SIGINT);
		return 3; /* not reached: SIGINT */
	}
	fprintf(stderr, "usage: signal_actions "
			"actions|pipe|wait|many|threads|forker|vforker|second|ignored|handled|race|"
			"init|init-raw\n");
	return 2;
}
