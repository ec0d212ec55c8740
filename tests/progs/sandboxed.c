/*
 * Allocates, enters a seccomp sandbox and goes on in it; the capture test
 * sandbox.sh checks that the tracer stopped before the sandbox, instead
 * of being killed in it at its next system call.
 *
 *   sandboxed          the sandbox kills the process on any system call
 *                      but the few it needs (write, the heap's, exit); it
 *                      allocates on inside, and prints what it did
 *   sandboxed exec     the sandbox kills on fcntl and getrusage only (a
 *                      tracer's, at a program's start); it runs echo
 *   sandboxed syscall  as the first, entered as libseccomp enters one:
 *                      the seccomp system call through syscall(), after
 *                      the questions libseccomp asks the kernel first and
 *                      an allocation of AFTER_PROBE_SIZE bytes, which the
 *                      trace must hold
 *   sandboxed vfork    a vfork child enters exec's sandbox through
 *                      syscall() and runs echo; the parent goes on and
 *                      allocates AFTER_VFORK_SIZE bytes CALLS times, which
 *                      the trace must hold, and still reads SIGTERM's
 *                      action as the default (the child gave the tracer's
 *                      catchers back in its own process only)
 *   sandboxed fds      the sandbox kills on fstat only (how the tracer
 *                      tells its own descriptors); inside, it asks about
 *                      every descriptor from 3 to 1023 (fcntl, dup2, close)
 */
#define _GNU_SOURCE /* syscall */
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define BEFORE_SIZE	 4324 /* the sizes the test finds in the trace */
#define AFTER_PROBE_SIZE 4325
#define AFTER_VFORK_SIZE 4328
#define CALLS		 1000

static void *volatile kept; /* so that no allocation is elided */

#define ALLOW(nr)                                                                                  \
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1),                                           \
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)

#define KILL(nr)                                                                                   \
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1),                                           \
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS)

static int through_syscall;

static int enter(struct sock_filter *filter, unsigned short len)
{
	struct sock_fprog prog = {len, filter};
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    (through_syscall ? syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog)
			     : prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))) {
		perror("seccomp");
		return 1;
	}
	return 0;
}

/*
 * libseccomp's questions to the kernel before it loads a filter: which
 * actions it has, and whether it knows strict mode's flags and a filter's
 * (calls made to fail, with EINVAL and EFAULT).
 */
static int probe(void)
{
	unsigned int action = SECCOMP_RET_KILL_PROCESS;
	if (syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action) ||
	    syscall(SYS_seccomp, SECCOMP_SET_MODE_STRICT, 1, NULL) != -1 ||
	    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_LOG, NULL) != -1) {
		perror("seccomp probe");
		return 1;
	}
	kept = malloc(AFTER_PROBE_SIZE);
	free(kept);
	return 0;
}

/* The child a sandboxed process starts inherits the filter. */
static int run_echo(void)
{
	struct sock_filter filter[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		KILL(SYS_fcntl),
		KILL(SYS_getrusage),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	if (enter(filter, sizeof(filter) / sizeof(filter[0])))
		return 1;
	execl("/bin/echo", "echo", "echo in the sandbox", (char *)NULL);
	perror("exec");
	return 127;
}

/* What a program that closes what it inherited asks, where the tracer's descriptors are. */
static int ask_about_fds(void)
{
	struct sock_filter filter[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		KILL(SYS_fstat),
		KILL(SYS_newfstatat),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	if (enter(filter, sizeof(filter) / sizeof(filter[0])))
		return 1;
	for (int fd = 3; fd < 1024; fd++)
		if (fcntl(fd, F_GETFD) >= 0 && dup2(fd, fd) == fd)
			fcntl(fd, F_SETFD, FD_CLOEXEC);
	printf("asked about descriptors 3 to 1023 in the sandbox\n");
	return 0;
}

/* Only the vfork child enters the sandbox: the parent is still traced. */
static int vfork_echo(void)
{
	pid_t pid = vfork();
	if (pid < 0) {
		perror("vfork");
		return 1;
	}
	if (pid == 0)
		_exit(run_echo());
	int status;
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "the child failed\n");
		return 1;
	}
	struct sigaction term;
	if (sigaction(SIGTERM, NULL, &term) || term.sa_handler != SIG_DFL) {
		fprintf(stderr, "SIGTERM's action is not the default after the child\n");
		return 1;
	}
	for (int i = 0; i < CALLS; i++) {
		kept = malloc(AFTER_VFORK_SIZE);
		free(kept);
	}
	printf("the parent went on\n");
	return 0;
}

int main(int argc, char **argv)
{
	kept = malloc(BEFORE_SIZE);
	free(kept);
	printf("before the sandbox\n");
	fflush(stdout);
	if (argc == 2 && !strcmp(argv[1], "exec"))
		return run_echo();
	if (argc == 2 && !strcmp(argv[1], "fds"))
		return ask_about_fds();
	if (argc == 2 && !strcmp(argv[1], "vfork")) {
		through_syscall = 1;
		return vfork_echo();
	}
	through_syscall = argc == 2 && !strcmp(argv[1], "syscall");
	if (through_syscall && probe())
		return 1;
	struct sock_filter filter[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		ALLOW(SYS_write),
		ALLOW(SYS_exit_group),
		ALLOW(SYS_exit),
		ALLOW(SYS_brk),
		ALLOW(SYS_mmap),
		ALLOW(SYS_munmap),
		ALLOW(SYS_mremap),
		ALLOW(SYS_futex),
		ALLOW(SYS_rt_sigreturn),
		ALLOW(SYS_newfstatat),
		ALLOW(SYS_fstat),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
	};
	if (enter(filter, sizeof(filter) / sizeof(filter[0])))
		return 1;
	int n = 0;
	for (; n < 100000; n++) {
		kept = malloc((size_t)n % 5000 + 1);
		free(kept);
	}
	printf("%d allocations in the sandbox\n", n);
	return 0;
}
