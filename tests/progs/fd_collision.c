/*
 * fd_collision: a program that puts its own files on the low descriptors
 * after the tracer has started and unwound, then allocates through a frame
 * with no unwind information. That frame makes libunwind guess its caller
 * and check memory, which libunwind 1.6 does through a pipe it made at
 * its start (here, before the program's files) on the lowest free
 * descriptors: the very numbers this program now uses (libunwind issues
 * 274, 291).
 *
 * It prints the descriptors from 3 to 699 that are open before it opens
 * anything (those it inherited: the same with and without the preload,
 * which keeps its own at 700 and above), then checks, and says on stdout,
 * that nothing changed under it:
 *   - fds 3 and 4 are still its own files afterwards (same inode);
 *   - what it wrote to them is in the files, byte for byte, and nothing else.
 * Then it takes every pipe it finds at 700 and above (where the tracer
 * keeps libunwind's pipe), as a program that dup2s onto any number would,
 * and unwinds through fresh stack pages again: the file it put there is
 * neither read nor written by anyone else.
 * Exit status 0 if all holds, 1 otherwise.
 *
 * usage: fd_collision DIR
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../check.h"
#include "no_unwind_info.h"

#define NOINLINE __attribute__((noinline))

/* Prints the open descriptors from 3 to 699, and what they are. */
static void print_low_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	if (!d)
		return;
	while ((e = readdir(d))) {
		int fd = atoi(e->d_name);
		if (fd >= 3 && fd < 700 && fd != dirfd(d)) {
			char link[64], target[256] = "";
			snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
			ssize_t n = readlink(link, target, sizeof(target) - 1);
			target[n > 0 ? n : 0] = '\0';
			printf("open before the program opened anything: fd %d, %s\n", fd, target);
		}
	}
	closedir(d);
}

/* Puts the open file f on every pipe descriptor at 700 and above (into taken). */
static int take_high_pipes(int f, int taken[], int max)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n_taken = 0;
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		int fd = atoi(e->d_name);
		char link[64], target[256] = "";
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		ssize_t n = readlink(link, target, sizeof(target) - 1);
		target[n > 0 ? n : 0] = '\0';
		if (fd >= 700 && n_taken < max && !strncmp(target, "pipe:", 5) && dup2(f, fd) == fd)
			taken[n_taken++] = fd;
	}
	closedir(d);
	return n_taken;
}

/* Opens DIR/name write-only onto fd; returns its inode. */
static ino_t own_file(const char *dir, const char *name, int fd)
{
	char path[4096];
	struct stat st;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	int f = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (f < 0 || dup2(f, fd) != fd || fstat(fd, &st)) {
		perror(path);
		exit(2);
	}
	if (f != fd)
		close(f);
	return st.st_ino;
}

static int same_file(int fd, ino_t ino)
{
	struct stat st;
	return fstat(fd, &st) == 0 && st.st_ino == ino;
}

static int file_holds(const char *dir, const char *name, const char *want)
{
	char path[4096], got[256];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	size_t n = fread(got, 1, sizeof(got), f);
	fclose(f);
	return n == strlen(want) && memcmp(got, want, n) == 0;
}

/*
 * The tracer starts here, and libunwind too, through a frame without
 * unwind information (libunwind starts at its first walk, unwind.c):
 * while 3 and 4 are free, as they were for a pipe made at init.
 */
static NOINLINE void warm_up(void)
{
	free(malloc(64));
	gt_test_alloc_without_unwind_info(64);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: fd_collision DIR\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IONBF, 0);
	warm_up();
	print_low_fds();

	/* The program's own files, where a shell's `exec 3>... 4>...` puts them. */
	ino_t ino3 = own_file(argv[1], "fd3", 3);
	ino_t ino4 = own_file(argv[1], "fd4", 4);
	for (int i = 0; i < 100; i++)
		gt_test_alloc_without_unwind_info(100 + i);
	const char *msg3 = "fd 3 is still ours\n", *msg4 = "fd 4 is still ours\n";
	CHECK_SAY(write(3, msg3, strlen(msg3)) == (ssize_t)strlen(msg3), "write to fd 3");
	CHECK_SAY(write(4, msg4, strlen(msg4)) == (ssize_t)strlen(msg4), "write to fd 4");
	CHECK_SAY(same_file(3, ino3), "fd 3 is the program's file");
	CHECK_SAY(same_file(4, ino4), "fd 4 is the program's file");
	close(3);
	close(4);
	CHECK_SAY(file_holds(argv[1], "fd3", msg3), "fd3's file holds exactly what was written");
	CHECK_SAY(file_holds(argv[1], "fd4", msg4), "fd4's file holds exactly what was written");

	/* A file of the program's, readable and writable, on the high pipes. */
	char path[4096];
	const char *data = "the program's data\n";
	snprintf(path, sizeof(path), "%s/high", argv[1]);
	int f = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (f < 0 || write(f, data, strlen(data)) != (ssize_t)strlen(data) ||
	    lseek(f, 0, SEEK_SET) != 0) {
		perror(path);
		return 2;
	}
	int taken[16];
	int n_taken = take_high_pipes(f, taken, 16);
	for (int i = 0; i < 10; i++)
		gt_test_alloc_deep_without_unwind_info(40);
	CHECK_SAY(lseek(f, 0, SEEK_CUR) == 0, "nobody read from or wrote to the program's file");
	for (int i = 0; i < n_taken; i++)
		close(taken[i]);
	close(f);
	CHECK_SAY(file_holds(argv[1], "high", data), "the program's file holds its data only");
	return check_failures != 0;
}
