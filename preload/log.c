/*
 * Warnings from inside the traced program. No stdio and no allocation:
 * this runs inside malloc hooks, in forked children and at exit.
 */
#include "log.h"
#include "quiet_write.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The file on fd 2 when the image started (known once gt_log_start ran). */
static struct {
	int known, open;
	dev_t dev;
	ino_t ino;
} stderr_at_start;

void gt_log_start(void)
{
	struct stat st;
	stderr_at_start.open = fstat(STDERR_FILENO, &st) == 0;
	if (stderr_at_start.open) {
		stderr_at_start.dev = st.st_dev;
		stderr_at_start.ino = st.st_ino;
	}
	stderr_at_start.known = 1;
}

/*
 * Whether fd 2 is still the stderr the image started with. A program
 * that started with it closed, or put a file of its own there since, would
 * find the warning in that file.
 */
static int stderr_is_the_same(void)
{
	struct stat st;
	if (!stderr_at_start.known)
		return 1; /* before the start: the program has not run yet */
	return stderr_at_start.open && fstat(STDERR_FILENO, &st) == 0 &&
	       st.st_dev == stderr_at_start.dev && st.st_ino == stderr_at_start.ino;
}

char *gt_utoa(uint64_t v, char *buf)
{
	char tmp[21];
	int n = 0;
	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (int i = 0; i < n; i++)
		buf[i] = tmp[n - 1 - i];
	buf[n] = '\0';
	return buf;
}

/* Copies s after the len bytes already in line (capacity cap); returns the new length. */
static size_t append(char *line, size_t len, size_t cap, const char *s)
{
	size_t n = strlen(s);
	if (n > cap - len)
		n = cap - len;
	memcpy(line + len, s, n);
	return len + n;
}

void gt_warn(const char *first, ...)
{
	char line[1024];
	size_t cap = sizeof(line) - 1; /* room for the newline */
	int saved_errno = errno;
	va_list ap;

	if (!stderr_is_the_same())
		return;

	size_t len = append(line, 0, cap, "gittrace: ");
	va_start(ap, first);
	for (const char *s = first; s; s = va_arg(ap, const char *))
		len = append(line, len, cap, s);
	va_end(ap);
	line[len++] = '\n';
	/* One write: the line is not interleaved with git's own stderr. A
	 * stderr whose reader is gone must not kill the program (SIGPIPE). */
	gt_write_quietly(STDERR_FILENO, line, len);
	errno = saved_errno;
}
