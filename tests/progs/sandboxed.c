/*
 * Allocates, enters a seccomp sandbox that kills the process on any
 * system call but the few it needs (write, the heap's, exit), allocates
 * on inside it and prints what it did. The capture test sandbox.sh checks
 * that the tracer stopped before the sandbox, instead of being killed in
 * it at its next write.
 */
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#define BEFORE_SIZE 4324 /* the size the test finds in the trace */

static void *volatile kept; /* so that no allocation is elided */

#define ALLOW(nr)                                                                                  \
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1),                                           \
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)

int main(void)
{
	kept = malloc(BEFORE_SIZE);
	free(kept);
	printf("before the sandbox\n");
	fflush(stdout);
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
	struct sock_fprog prog = {sizeof(filter) / sizeof(filter[0]), filter};
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) {
		perror("seccomp");
		return 1;
	}
	int n = 0;
	for (; n < 100000; n++) {
		kept = malloc((size_t)n % 5000 + 1);
		free(kept);
	}
	printf("%d allocations in the sandbox\n", n);
	return 0;
}
