/*
 * Commands of one pipeline share a named trace file. See pipeline_marks.h.
 *
 * With the variables exported in a shell that is not traced itself,
 * every command of `git log | sort` is a root of its own run. The file's
 * lock makes a root that starts while another still writes join it
 * (session.c), but a lock lasts only as long as its holder: where sort's
 * tracer started after git had ended (a loaded machine, or a reader that
 * waits first), sort found the file unlocked, took it for an earlier
 * run's and replaced it, and git's records were gone without a word.
 *
 * What ties the commands of a pipeline together is the pipe between them:
 * one writes into it, the next reads from it. So each root of a named file
 * marks the ends of the pipes on its fds 0 to 2 on the file itself, as
 * extended attributes: `user.gittrace.pipe.<dev>.<inode>.w` for a write
 * end, `.r` for a read end, with no value. A root that finds the file
 * unlocked joins it if the other end of one of its own pipes is marked.
 * Two commands that run one after the other and write into the same pipe
 * (a script's stdout that a CI runner reads) hold the same end of it, so
 * the later one still replaces the file, as a later run does.
 *
 * Where the file system keeps no user attributes (tmpfs before Linux
 * 6.6, some network file systems), nothing is marked and a root decides
 * by the lock alone, as before.
 */
#include "pipeline_marks.h"
#include "log.h"

#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>

/* macOS's calls take a position (resource forks only) and options more. */
#ifdef __APPLE__
#define has_mark(fd, name)	    fgetxattr(fd, name, NULL, 0, 0, 0)
#define set_mark(fd, name)	    fsetxattr(fd, name, "", 0, 0, 0)
#define list_marks(fd, names, size) flistxattr(fd, names, size, 0)
#define remove_mark(fd, name)	    fremovexattr(fd, name, 0)
#else
#define has_mark(fd, name)	    fgetxattr(fd, name, NULL, 0)
#define set_mark(fd, name)	    fsetxattr(fd, name, "", 0, 0)
#define list_marks(fd, names, size) flistxattr(fd, names, size)
#define remove_mark(fd, name)	    fremovexattr(fd, name)
#endif

#define MARK_PREFIX "user.gittrace.pipe."

/* A mark's name: the prefix, two numbers of up to 20 digits, the end. */
#define MARK_NAME_MAX (sizeof(MARK_PREFIX) + 2 * 21 + 2)

/* Appends s to name (capacity MARK_NAME_MAX, always enough); returns its end. */
static char *append(char *end, const char *s)
{
	size_t n = strlen(s);
	memcpy(end, s, n + 1);
	return end + n;
}

/*
 * Fills name with the mark of the pipe end on fd, or of its other end if
 * other is set; 0 if fd holds no pipe (or both of its ends).
 */
static int mark_of(int fd, int other, char name[MARK_NAME_MAX])
{
	struct stat st;
	if (fstat(fd, &st) || !S_ISFIFO(st.st_mode))
		return 0;
	int mode = fcntl(fd, F_GETFL);
	if (mode < 0 || (mode & O_ACCMODE) == O_RDWR)
		return 0;
	int reads = (mode & O_ACCMODE) == O_RDONLY;
	char num[21];
	char *end = append(name, MARK_PREFIX);
	end = append(end, gt_utoa((uint64_t)st.st_dev, num));
	end = append(end, ".");
	end = append(end, gt_utoa((uint64_t)st.st_ino, num));
	append(end, reads != other ? ".r" : ".w");
	return 1;
}

int gt_pipeline_wrote(int fd)
{
	char name[MARK_NAME_MAX];
	for (int std = 0; std <= 2; std++)
		if (mark_of(std, 1, name) && has_mark(fd, name) >= 0)
			return 1;
	return 0;
}

void gt_pipeline_mark(int fd)
{
	char name[MARK_NAME_MAX];
	for (int std = 0; std <= 2; std++)
		if (mark_of(std, 0, name))
			set_mark(fd, name);
}

void gt_pipeline_forget(int fd)
{
	static char names[4096]; /* only at the image's start: off the thread's stack */
	ssize_t len = list_marks(fd, names, sizeof(names));
	for (ssize_t at = 0; at < len; at += (ssize_t)strlen(names + at) + 1)
		if (!strncmp(names + at, MARK_PREFIX, strlen(MARK_PREFIX)))
			remove_mark(fd, names + at);
}
