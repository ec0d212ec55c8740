/*
 * Which file a traced run writes, and how it is opened.
 *
 * The first traced process of a run (the root) creates the file; every
 * program it execs or spawns gets GITTRACE_SESSION=<absolute path> added
 * to its environment (hooks_process.c), and passes it on to its own
 * children. A process that finds GITTRACE_SESSION opens that file for
 * appending instead of starting a file of its own, so one run writes
 * exactly one file. The root's own environment is left alone: setenv()
 * there would make the program's later setenv() reallocate instead of
 * allocate, a change in what it does. A root that cannot trace passes
 * GITTRACE_SESSION=- on: its descendants then stay untraced and silent,
 * and the user sees one warning, not one per process.
 *
 * A process that stops tracing because the file cannot grow (disk full,
 * file-size limit) sets the file's sticky bit, which means nothing else on
 * a regular file: processes started later see it and stay untraced without
 * warning again.
 *
 * Every process that writes the file holds a shared lock on it (flock:
 * the lock is the open file's, so a fork's child shares it) until it ends,
 * never waiting for it. So a root that finds the file locked knows that
 * processes of another run still write it: `git log | sort` traced whole
 * has a root per command, and git gc --auto leaves a repack running after
 * the command that started it. That root adds its records to theirs
 * instead of truncating the file under them, and the launcher waits for
 * the lock before it reports (launcher/gittrace.in). A command of a
 * pipeline whose others have ended already joins them too: it holds the
 * other end of a pipe they marked on the file (pipeline_marks.h).
 *
 * Safety: the file is created with O_NOFOLLOW (a symlink planted at the
 * path is refused, never followed), mode 0600 unless GITTRACE_FILE_MODE
 * says otherwise; a default name is created with O_EXCL so an existing
 * file is never clobbered; only a path the user named is truncated, and
 * only while no traced process holds its lock.
 */
#include "session.h"
#include "log.h"
#include "no_cancel.h"
#include "pipeline_marks.h"
#include "settings.h"
#include "tracer.h"
#include "gittrace/format.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * How the trace file is opened besides creating it: O_NONBLOCK, so that a
 * FIFO named as the output cannot block the program in the open (it is no
 * regular file, refused after); O_NOCTTY, so that a terminal named cannot
 * become the program's controlling terminal.
 */
#define GT_TRACE_OPEN_FLAGS (O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)

#define SESSION_VAR "GITTRACE_SESSION"
#define SESSION_OFF "-"

/* "GITTRACE_SESSION=<path or ->" for new programs; empty until known. */
static char session_env[sizeof(SESSION_VAR "=") + PATH_MAX];

static void session_set(const char *value)
{
	size_t n = strlen(SESSION_VAR "=");
	memcpy(session_env, SESSION_VAR "=", n);
	size_t len = strnlen(value, PATH_MAX - 1);
	memcpy(session_env + n, value, len);
	session_env[n + len] = '\0';
}

/*
 * The process gt_session_off_in_this_process was called in; 0 if none. It
 * stays in the memory of the process that shares it: that process clears
 * it when it next asks (the vfork child is done by then), and a forked
 * child at its start (gt_session_forked), so that no later process that
 * gets the same pid back takes it for its own.
 */
static pid_t off_in_pid;

const char *gt_session_env(void)
{
	if (off_in_pid) {
		if (off_in_pid == getpid())
			return SESSION_VAR "=" SESSION_OFF;
		off_in_pid = 0;
	}
	return session_env[0] ? session_env : NULL;
}

/*
 * The GITTRACE_SESSION this image began with (gt_session_read), a forked
 * child's too: given points into the environment as it was at the start,
 * read there only; a GT_SESSION_NEW request is copied, for the execs.
 */
static const char *given;
static int began_anew;
static char request[PATH_MAX];

void gt_session_read(void)
{
	given = secure_getenv(SESSION_VAR);
	began_anew = given && given[0] == GT_SESSION_NEW;
	request[0] = '\0';
	if (began_anew && strlen(given) < sizeof(request))
		strcpy(request, given);
}

const char *gt_session_given(void)
{
	return began_anew ? NULL : given;
}

int gt_session_began_at(const char *value)
{
	size_t n = strlen(SESSION_VAR "=");
	if (!strncmp(value, SESSION_VAR "=", n))
		value += n;
	return request[0] && !strcmp(value, request);
}

int gt_session_untraced(void)
{
	return given && strcmp(given, SESSION_OFF) == 0;
}

void gt_session_forked(void)
{
	off_in_pid = 0;
}

void gt_session_off(void)
{
	session_set(SESSION_OFF);
}

void gt_session_off_in_this_process(void)
{
	off_in_pid = getpid();
}

/* Appends s to buf (capacity cap, NUL-terminated); -1 if it does not fit. */
static int path_append(char *buf, size_t cap, const char *s)
{
	size_t len = strlen(buf), n = strlen(s);
	if (len + n + 1 > cap)
		return -1;
	memcpy(buf + len, s, n + 1);
	return 0;
}

/* The short name of the program, for default file names. */
static void program_name(char *out, size_t cap)
{
	static char exe[PATH_MAX]; /* only at the image's start: off the thread's stack */
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	const char *base = "process";
	if (n > 0) {
		exe[n] = '\0';
		base = strrchr(exe, '/') ? strrchr(exe, '/') + 1 : exe;
	}
	size_t len = 0;
	for (; base[len] && len + 1 < cap; len++)
		out[len] = (base[len] == '.' || base[len] == '/') ? '_' : base[len];
	out[len] = '\0';
}

/*
 * Creates a new file gittrace.<program>.<pid>[.<n>].zst in dir (which ends
 * in '/'). Fills path.
 */
static int create_default(const char *dir, char *path, size_t cap)
{
	char name[64], pidbuf[21], nbuf[21];
	program_name(name, sizeof(name));
	gt_utoa((uint64_t)getpid(), pidbuf);
	for (unsigned n = 0; n < 1000; n++) {
		path[0] = '\0';
		if (path_append(path, cap, dir) || path_append(path, cap, "gittrace.") ||
		    path_append(path, cap, name) || path_append(path, cap, ".") ||
		    path_append(path, cap, pidbuf))
			return -1;
		if (n && (path_append(path, cap, ".") || path_append(path, cap, gt_utoa(n, nbuf))))
			return -1;
		if (path_append(path, cap, ".zst"))
			return -1;
		int fd = open(path, O_CREAT | O_EXCL | GT_TRACE_OPEN_FLAGS, gt_settings.file_mode);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	errno = EEXIST;
	return -1;
}

/*
 * Opens (creating) the root's file; fills path with what was opened, and
 * *named says the user named that file, which the root may replace
 * (replace_unless_written).
 */
static int open_root_file(char *path, size_t cap, int *named)
{
	const char *out = gt_settings.output;
	struct stat st;
	*named = 0;
	int by_default = !out; /* a directory, existing or not */
	if (by_default)
		out = gt_settings.default_dir;
	size_t len = strlen(out);
	if (by_default || out[len - 1] == '/' || (stat(out, &st) == 0 && S_ISDIR(st.st_mode))) {
		char dir[PATH_MAX] = "";
		if (path_append(dir, sizeof(dir), out) ||
		    (out[len - 1] != '/' && path_append(dir, sizeof(dir), "/")))
			return errno = ENAMETOOLONG, -1;
		return create_default(dir, path, cap);
	}
	path[0] = '\0';
	if (path_append(path, cap, out))
		return errno = ENAMETOOLONG, -1;
	*named = 1;
	return open(path, O_CREAT | GT_TRACE_OPEN_FLAGS, gt_settings.file_mode);
}

/*
 * The user named the root's file (a regular one): replacing its content is
 * what they asked, unless traced processes of another run write it now
 * (they hold its lock), or wrote it as commands of this process's pipeline
 * (pipeline_marks.h). Returns 1 if it was emptied, 0 if this run joins
 * theirs, -1 if it could not be emptied. Where locks fail otherwise (some
 * network file systems), it is emptied, as before there were locks.
 */
static int replace_unless_written(int fd)
{
	if (flock(fd, LOCK_EX | LOCK_NB) && errno == EWOULDBLOCK)
		return 0;
	if (gt_pipeline_wrote(fd))
		return 0;
	if (ftruncate(fd, 0))
		return -1;
	gt_pipeline_forget(fd);
	return 1;
}

/* Holds the file's shared lock while the process writes it; never waits. */
static void hold(int fd)
{
	flock(fd, LOCK_SH | LOCK_NB);
}

/* Makes path absolute (in place) so children in other directories find it. */
static int make_absolute(char *path, size_t cap)
{
	char abs[PATH_MAX];
	if (path[0] == '/')
		return 0;
	if (!getcwd(abs, sizeof(abs)) || path_append(abs, sizeof(abs), "/") ||
	    path_append(abs, sizeof(abs), path) || strlen(abs) + 1 > cap)
		return -1;
	memcpy(path, abs, strlen(abs) + 1);
	return 0;
}

int gt_fd_move_high(int fd)
{
	/* Under a lower limit on descriptors, its top quarter. */
	int floor = GT_FD_FLOOR;
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur <= GT_FD_FLOOR)
		floor = (int)(rl.rlim_cur - rl.rlim_cur / 4);
	int high = fcntl(fd, F_DUPFD_CLOEXEC, floor);
	if (high < 0)
		return fd;
	close(fd);
	return high;
}

/*
 * The trace file, opened and found a regular file, as the writer keeps it:
 * blocking again (O_NONBLOCK was moot on it) and high (gt_fd_move_high).
 */
static int writer_fd(int fd)
{
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return gt_fd_move_high(fd);
}

static int open_session(int *origin, struct gt_trace_file *file)
{
	const char *session = gt_session_given();
	static char path[PATH_MAX]; /* only at the image's start: off the thread's stack */
	int fd, named = 0;

	if (session)
		session_set(session);
	if (session) {
		*origin = GT_ORIGIN_EXEC;
		fd = open(session, GT_TRACE_OPEN_FLAGS);
		if (fd < 0) {
			gt_disable("cannot open trace file '", session, "': ", gt_strerror(errno),
				   "; not tracing this process", NULL);
			return -1;
		}
	} else {
		*origin = GT_ORIGIN_ROOT;
		fd = open_root_file(path, sizeof(path), &named);
		if (fd < 0) {
			const char *out = gt_settings.output;
			const char *what = out ? out : gt_settings.default_dir;
			const char *name = out ? "" : "/gittrace.*.zst";
			if (errno == ENXIO) /* a FIFO nobody reads, a device that is not there */
				gt_disable("trace output '", what, name,
					   "' is not a regular file; running untraced", NULL);
			else
				gt_disable("cannot create trace file '", what, name,
					   "': ", gt_strerror(errno), "; running untraced", NULL);
			return -1;
		}
		if (make_absolute(path, sizeof(path))) {
			close(fd);
			gt_disable("cannot make the trace path absolute for child processes; "
				   "running untraced",
				   NULL);
			return -1;
		}
		session_set(path);
	}

	struct stat st;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		gt_disable("trace output '", session ? session : path,
			   "' is not a regular file; running untraced", NULL);
		return -1;
	}
	/* 1: the file is this root's, new or emptied; 0: it joins a run that writes it. */
	int own_file = named ? replace_unless_written(fd) : *origin == GT_ORIGIN_ROOT;
	if (own_file < 0) {
		int err = errno;
		close(fd);
		gt_disable("cannot replace trace file '", path, "': ", gt_strerror(err),
			   "; running untraced", NULL);
		return -1;
	}
	if ((st.st_mode & S_ISVTX) && !own_file && *origin == GT_ORIGIN_ROOT) {
		/* The run it would join could not write: warned there, not here. */
		close(fd);
		gt_disable("trace file '", path, "' is written by another run, which could not ",
			   "write all of it (a full disk or the file size limit); running untraced",
			   NULL);
		return -1;
	}
	if ((st.st_mode & S_ISVTX) && !own_file) {
		/* An earlier process of the run could not write: it warned. */
		close(fd);
		gt_stop_quietly();
		session_set(SESSION_OFF);
		return -1;
	}
	/*
	 * A root that finds the mark replaces a file an earlier run could not
	 * finish: the mark is that run's, and left on, it would stop this run's
	 * processes without a word.
	 */
	if ((st.st_mode & S_ISVTX) && fchmod(fd, st.st_mode & 07777 & ~(mode_t)S_ISVTX)) {
		int err = errno;
		close(fd);
		gt_disable("cannot clear the mark of an earlier run that failed from trace file '",
			   path, "': ", gt_strerror(err), "; running untraced", NULL);
		return -1;
	}
	hold(fd);
	if (named)
		gt_pipeline_mark(fd); /* for the pipeline's roots that start later */
	file->fd = writer_fd(fd);
	file->dev = st.st_dev;
	file->ino = st.st_ino;
	return 0;
}

int gt_session_open(int *origin, struct gt_trace_file *file)
{
	int cancel = gt_cancel_off(); /* open and close are cancellation points */
	int ret = open_session(origin, file);
	gt_cancel_restore(cancel);
	return ret;
}

int gt_session_holds(const struct gt_trace_file *file, int fd, struct stat *st)
{
	return fstat(fd, st) == 0 && st->st_dev == file->dev && st->st_ino == file->ino;
}

int gt_session_reopen(struct gt_trace_file *file)
{
	const char *session = gt_session_env();
	const char *path = session ? strchr(session, '=') + 1 : NULL;
	if (!path || !strcmp(path, SESSION_OFF))
		return -1;
	int saved_errno = errno;
	int cancel = gt_cancel_off(); /* open and close are cancellation points */
	int fd = open(path, GT_TRACE_OPEN_FLAGS);
	struct stat st;
	if (fd >= 0 && !gt_session_holds(file, fd, &st)) {
		close(fd); /* another file by that name now */
		fd = -1;
	}
	if (fd >= 0) {
		hold(fd);
		file->fd = writer_fd(fd);
	}
	gt_cancel_restore(cancel);
	errno = saved_errno;
	return fd >= 0 ? 0 : -1;
}

void gt_session_mark_failed(const struct gt_trace_file *file)
{
	struct stat st;
	if (gt_session_holds(file, file->fd, &st) && S_ISREG(st.st_mode))
		fchmod(file->fd, (st.st_mode & 07777) | S_ISVTX);
}
