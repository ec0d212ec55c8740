/* Where the window settings come from, asked of git (config_origins.h). */
#include "config_origins.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "die.h"
#include "git_settings.h"
#include "gittrace/git_argv.h"
#include "shell_quote.h"

extern char **environ;

/* Both keys, as git matches them: lower case, the dot escaped. */
#define KEYS_REGEXP "^core\\.packedgit(limit|windowsize)$"

/* More than any config sets for two keys: the rest is not read. */
#define OUTPUT_MAX (64u << 10)

/* The NUL-terminated field at *p (before end), moving *p past it; NULL if none. */
static const char *field(const char **p, const char *end)
{
	const char *nul = memchr(*p, '\0', (size_t)(end - *p));
	if (!nul)
		return NULL;
	const char *f = *p;
	*p = nul + 1;
	return f;
}

void gt_config_origins_release(struct gt_config_origins *o)
{
	for (size_t i = 0; i < o->n; i++) {
		free(o->v[i].key);
		free(o->v[i].value);
		free(o->v[i].scope);
		free(o->v[i].origin);
	}
	free(o->v);
	free(o->git);
	memset(o, 0, sizeof(*o));
}

/*
 * With -z, git prints each value as "SCOPE\0ORIGIN\0KEY\nVALUE\0", or
 * "SCOPE\0ORIGIN\0KEY\0" for a key without a value.
 */
int gt_config_origins_parse(struct gt_config_origins *o, const char *out, size_t len)
{
	const char *p = out, *end = out + len;
	size_t cap = 0;
	while (p < end) {
		const char *scope = field(&p, end), *origin = scope ? field(&p, end) : NULL;
		const char *key_value = origin ? field(&p, end) : NULL;
		if (!key_value || !*scope || !*key_value) {
			gt_config_origins_release(o);
			return -1;
		}
		const char *nl = strchr(key_value, '\n');
		size_t key_len = nl ? (size_t)(nl - key_value) : strlen(key_value);
		if (o->n == cap) {
			cap = cap ? 2 * cap : 4;
			o->v = gt_xrealloc(o->v, cap * sizeof(*o->v));
		}
		o->v[o->n++] = (struct gt_config_setting){
			.key = gt_xstrndup(key_value, key_len),
			.value = nl ? gt_xstrndup(nl + 1, strlen(nl + 1)) : gt_xstrndup("", 0),
			.scope = gt_xstrndup(scope, strlen(scope)),
			.origin = gt_xstrndup(origin, strlen(origin)),
		};
	}
	return 0;
}

/* Reads fd to its end, or to max bytes; returns the bytes read (buf holds max). */
static size_t read_all(int fd, char *buf, size_t max)
{
	size_t len = 0;
	while (len < max) {
		ssize_t r = read(fd, buf + len, max - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		len += (size_t)r;
	}
	return len;
}

/* Runs argv with its output on a pipe; returns its exit status, or -1. */
static int run_reading(char *const *argv, char *out, size_t max, size_t *len)
{
	int pipefd[2];
	if (pipe(pipefd) != 0)
		return -1;
	fcntl(pipefd[0], F_SETFD, FD_CLOEXEC);
	posix_spawn_file_actions_t actions;
	posix_spawn_file_actions_init(&actions);
	posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&actions, pipefd[1], 1);
	posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addclose(&actions, pipefd[1]);
	pid_t pid;
	int err = posix_spawnp(&pid, argv[0], &actions, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&actions);
	close(pipefd[1]);
	if (err) {
		close(pipefd[0]);
		return -1;
	}
	*len = read_all(pipefd[0], out, max);
	close(pipefd[0]); /* more than max: git ends on SIGPIPE, a failure */
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Room for the lookup's words: git, -C CWD, the options, the subcommand's. */
#define ARGV_MAX (3 + 2 * GT_GIT_REPO_OPTIONS_MAX + 8)

/*
 * The words that reach img's repository: its git program where it names
 * one (the same system config), -C its directory (first: the process's
 * own -C are relative to it), its repository options. Returns how many; 0
 * if its directory is not known as an absolute path.
 */
static size_t repo_argv(const struct gt_image *img, const char **argv)
{
	if (!img->cwd || img->cwd[0] != '/')
		return 0;
	struct gt_git_option opts[GT_GIT_REPO_OPTIONS_MAX];
	size_t nopts = gt_git_repo_options(img, opts, GT_GIT_REPO_OPTIONS_MAX), n = 0;
	argv[n++] = img->exe && img->exe[0] == '/' && !strcmp(gt_git_basename(img->exe), "git")
			    ? img->exe
			    : "git";
	argv[n++] = "-C";
	argv[n++] = img->cwd;
	for (size_t i = 0; i < nopts; i++) {
		argv[n++] = opts[i].name;
		if (opts[i].value)
			argv[n++] = opts[i].value;
	}
	return n;
}

char *gt_config_origins_git(const struct gt_image *img)
{
	const char *argv[ARGV_MAX];
	size_t n = repo_argv(img, argv);
	if (!n)
		return NULL;
	char buf[4096] = "git"; /* the user's, from PATH */
	for (size_t i = 1; i < n; i++)
		gt_shell_quote(buf, sizeof(buf), argv[i]);
	return gt_xstrndup(buf, strlen(buf));
}

int gt_config_origins_look_up(struct gt_config_origins *o, const struct gt_image *img)
{
	memset(o, 0, sizeof(*o));
	const char *argv[ARGV_MAX];
	size_t n = repo_argv(img, argv);
	if (!n)
		return -1;
	const char *tail[] = {"config",	       "-z",	       "--show-scope",
			      "--show-origin", "--get-regexp", KEYS_REGEXP};
	for (size_t i = 0; i < sizeof(tail) / sizeof(tail[0]); i++)
		argv[n++] = tail[i];
	argv[n] = NULL;

	char *out = gt_xmalloc(OUTPUT_MAX);
	size_t len = 0;
	int status = run_reading((char *const *)argv, out, OUTPUT_MAX, &len);
	int ret = -1;
	if (status == 1 && len == 0) /* git config's answer for "none set" */
		ret = 0;
	else if (status == 0)
		ret = gt_config_origins_parse(o, out, len);
	free(out);
	if (ret == 0)
		o->git = gt_config_origins_git(img);
	return ret;
}
