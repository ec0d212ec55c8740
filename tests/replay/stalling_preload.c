/*
 * An "allocator" that never lets its replay finish, for interrupted.sh: at
 * load it writes its pid to $GITTRACE_TEST_STALL_FILE and waits for a
 * signal. The test then knows the replay is under way, with its op streams
 * on disk and a replayer running, whatever the machine's speed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

__attribute__((constructor)) static void stall(void)
{
	const char *path = getenv("GITTRACE_TEST_STALL_FILE");
	if (!path)
		return;
	char tmp[4096];
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	FILE *f = fopen(tmp, "w");
	if (!f || fprintf(f, "%ld\n", (long)getpid()) < 0 || fclose(f) || rename(tmp, path))
		_exit(3);
	for (;;)
		pause();
}
