/*
 * The identity of a process image and the records that frame its calls:
 * IMAGE (who: pid, ppid, argv, executable, how it started), MODULE (what
 * was loaded where, to symbolize stacks offline) and END (CPU time, exit
 * reason, how many calls were recorded or dropped).
 */
#include "image.h"
#include "page_cycle.h"
#include "build_id.h"
#include "clock.h"
#include "loader.h"
#include "no_cancel.h"
#include "settings.h"
#include "stream.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <unistd.h>

/* An IMAGE record must fit a buffer of the smallest allowed size. */
#define GT_ARGV_MAX	  (16 << 10)
#define GT_ENV_MAX	  16
#define GT_ENV_LEN	  1024
#define GT_IMAGE_BODY_MAX (GT_ARGV_MAX + GT_ENV_MAX * (GT_ENV_LEN + GT_UV_MAX) + 2 * PATH_MAX + 256)

extern char **environ;

uint64_t gt_image_id;

/* rusage at image start: rusage survives exec, END reports the difference. */
static struct rusage start_usage;

uint64_t gt_image_new_id(void)
{
	uint64_t id = 0;
	int cancel = gt_cancel_off(); /* getrandom is a cancellation point */
	if (getrandom(&id, sizeof(id), GRND_NONBLOCK) != sizeof(id))
		id = gt_now_ns() ^ ((uint64_t)getpid() << 40);
	gt_cancel_restore(cancel);
	return id ? id : 1;
}

static uint64_t realtime_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return gt_timespec_ns(ts);
}

/* Reads argv from /proc/self/cmdline (works before main, in any thread). */
static size_t read_cmdline(char *buf, size_t cap)
{
	int cancel = gt_cancel_off(); /* open, read and close are cancellation points */
	int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
	size_t len = 0;
	if (fd < 0) {
		gt_cancel_restore(cancel);
		return 0;
	}
	while (len < cap) {
		ssize_t n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	gt_cancel_restore(cancel);
	/* Cut a truncated last argument at the last complete one. */
	while (len && buf[len - 1] != '\0')
		len--;
	return len;
}

/* The environment that changes what the allocator does or costs. */
static int allocator_relevant(const char *var)
{
	static const char *const prefixes[] = {
		"MALLOC_", "GLIBC_TUNABLES=", "LD_PRELOAD=", "GITTRACE_", "MIMALLOC_", "JEMALLOC_"};
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(var, prefixes[i], strlen(prefixes[i])))
			return 1;
	return 0;
}

/*
 * The allocator-relevant variables, each cut at GT_ENV_LEN bytes,
 * NUL-terminated one after another in buf; returns how many (at most
 * GT_ENV_MAX, so that the record always fits).
 */
static uint64_t relevant_env(char buf[GT_ENV_MAX * (GT_ENV_LEN + 1)])
{
	uint64_t envc = 0;
	for (char **e = environ; e && *e && envc < GT_ENV_MAX; e++) {
		if (!allocator_relevant(*e))
			continue;
		size_t len = strnlen(*e, GT_ENV_LEN);
		memcpy(buf, *e, len);
		buf[len] = '\0';
		buf += len + 1;
		envc++;
	}
	return envc;
}

static void write_image(int origin, uint64_t parent_image_id)
{
	/* Only under the start/fork path: static, off the thread's stack. */
	static uint8_t body[GT_IMAGE_BODY_MAX];
	static char args[GT_ARGV_MAX], env[GT_ENV_MAX * (GT_ENV_LEN + 1)];
	static char exe[PATH_MAX], cwd[PATH_MAX];
	uint64_t start_realtime_ns = realtime_ns(), start_mono_ns = gt_now_ns();

	ssize_t exe_len = readlink("/proc/self/exe", exe, sizeof(exe));
	size_t cwd_len = getcwd(cwd, sizeof(cwd)) ? strlen(cwd) : 0;
	size_t len = read_cmdline(args, sizeof(args));
	uint64_t argc = 0;
	for (size_t i = 0; i < len; i++)
		argc += args[i] == '\0';
	uint64_t envc = relevant_env(env);
	gt_clock_measure_overhead();
	uint8_t *end = gt_encode_image_body(
		body, (uint64_t)getpid(), (uint64_t)getppid(), start_realtime_ns, start_mono_ns,
		(uint64_t)origin, parent_image_id, sizeof(void *) * CHAR_BIT,
		(uint64_t)sysconf(_SC_PAGESIZE), gt_settings.stack_depth, exe,
		exe_len > 0 ? (size_t)exe_len : 0, cwd, cwd_len, argc, args, envc, env,
		gt_clock_overhead_ns, GT_TIMED_ONE_IN,
		origin == GT_ORIGIN_ROOT ? gt_page_cycle_ns() : 0);
	gt_stream_record(GT_REC_IMAGE, body, (size_t)(end - body));
}

/* The loader's count of modules loaded (dlpi_adds) when MODULE records were last written. */
static _Atomic unsigned long long adds_written;

static int write_module(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	(void)data;
	/*
	 * dl_iterate_phdr calls back under the loader's lock, one thread at
	 * a time: static, off the stack of the thread whose call comes first
	 * after a dlopen, which may be small.
	 */
	static uint8_t body[PATH_MAX + 128 + 3 * GT_UV_MAX];
	static char exe[PATH_MAX];
	const char *path = info->dlpi_name;
	uint64_t span = 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type == PT_LOAD && ph->p_vaddr + ph->p_memsz > span)
			span = ph->p_vaddr + ph->p_memsz;
	}
	if (!path || !*path) {
		/* The main program has no name here. */
		ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
		exe[n > 0 ? n : 0] = '\0';
		path = exe;
	}
	const uint8_t *id;
	size_t id_len;
	gt_build_id_of(info, &id, &id_len);
	size_t plen = strnlen(path, PATH_MAX);
	if (id_len > 64)
		id_len = 64;
	uint8_t *end = gt_encode_module_body(body, info->dlpi_addr, span, path, plen, id, id_len);
	gt_stream_record(GT_REC_MODULE, body, (size_t)(end - body));
	atomic_store_explicit(&adds_written, info->dlpi_adds, memory_order_relaxed);
	return 0;
}

void gt_image_modules(void)
{
	gt_loader_modules(write_module, NULL);
}

void gt_image_modules_if_loaded(void)
{
	struct gt_loader_counts now;
	if (!gt_loader_counts(&now) &&
	    now.adds != atomic_load_explicit(&adds_written, memory_order_relaxed))
		gt_image_modules();
}

void gt_image_begin(int origin, uint64_t parent_image_id)
{
	getrusage(RUSAGE_SELF, &start_usage);
	write_image(origin, parent_image_id);
	gt_image_modules();
	gt_stream_flush();
}

static uint64_t since_start(uint64_t now, uint64_t then)
{
	return now > then ? now - then : 0;
}

void gt_image_end(enum gt_end_reason reason, int status)
{
	struct rusage ru;
	uint8_t body[16 * GT_UV_MAX];

	getrusage(RUSAGE_SELF, &ru);
	uint8_t *end = gt_encode_end_body(
		body, (uint64_t)reason, status, realtime_ns(), gt_now_ns(),
		since_start(gt_timeval_ns(ru.ru_utime), gt_timeval_ns(start_usage.ru_utime)),
		since_start(gt_timeval_ns(ru.ru_stime), gt_timeval_ns(start_usage.ru_stime)),
		(uint64_t)ru.ru_maxrss,
		since_start((uint64_t)ru.ru_minflt, (uint64_t)start_usage.ru_minflt),
		since_start((uint64_t)ru.ru_majflt, (uint64_t)start_usage.ru_majflt),
		gt_stream_calls(), gt_stream_drops(), gt_stream_threads(), gt_stream_tracer_ns(),
		since_start((uint64_t)ru.ru_nivcsw, (uint64_t)start_usage.ru_nivcsw));
	gt_stream_end(body, (size_t)(end - body));
}

void gt_image_exec_failed(int err)
{
	uint8_t body[GT_UV_MAX];
	uint8_t *end = gt_encode_exec_failed_body(body, err);
	gt_stream_resume();
	gt_stream_record(GT_REC_EXEC_FAILED, body, (size_t)(end - body));
}
