/*
 * The subject of capture.preempted: shares its CPU with a busy child
 * until the kernel has switched it out involuntarily PREEMPTIONS times,
 * making allocations meanwhile; prints how many it saw (getrusage
 * ru_nivcsw). Both pinned to one CPU, the kernel's scheduler must switch
 * between them, on a fast machine as on a slow one.
 */
#define _GNU_SOURCE /* sched_setaffinity, CPU_* */
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define PREEMPTIONS 5

static long switched_out(void)
{
	struct rusage ru;
	return getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_nivcsw : -1;
}

int main(void)
{
	cpu_set_t cpus, one;
	if (sched_getaffinity(0, sizeof(cpus), &cpus))
		return 2;
	CPU_ZERO(&one);
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &cpus)) {
			CPU_SET(c, &one);
			break;
		}
	if (sched_setaffinity(0, sizeof(one), &one))
		return 2;
	pid_t busy = fork(); /* inherits the one CPU */
	if (busy < 0)
		return 2;
	if (!busy)
		for (;;)
			; /* until killed */
	long start = switched_out(), now = start;
	while (now >= 0 && now - start < PREEMPTIONS) {
		char *volatile p = malloc(64);
		free(p);
		now = switched_out();
	}
	kill(busy, SIGKILL);
	waitpid(busy, NULL, 0);
	printf("switched out %ld times\n", now - start);
	return now < 0 ? 2 : 0;
}
