/* Warm-ups, shuffled rounds and fresh copies (see method.h). */
#define _GNU_SOURCE
#include "method.h"
#include "die.h"
#include "command.h"
#include "env.h"
#include "progress.h"
#include "shuffle.h"
#include "spawn.h"
#include "workdir.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

struct ctx {
	const struct gt_ab_options *o;
	char *workdir;	  /* scratch: the copy and the command's stderr */
	char *copy;	  /* where the template is copied; NULL without --template */
	int null_fd;	  /* /dev/null: stdin always, stdout unless --show-output */
	int err_fd;	  /* the command's stderr unless --show-output */
	char ***commands; /* one copy of the command per variant (command.h) */
	char **envs[];	  /* one environment per variant */
};

/* The scratch directory to remove when gt_ab_die ends the process. */
static char *scratch;
static volatile sig_atomic_t interrupted;

static void remove_scratch(void)
{
	if (scratch)
		gt_ab_tree_remove(scratch, 1);
}

/*
 * Ctrl-C reaches the command too (same process group). We note it instead
 * of dying at once, so that the scratch directory is removed; the command's
 * own death is then reported like any failure.
 */
static void on_signal(int sig)
{
	interrupted = sig;
}

static void catch_signals(void (*handler)(int))
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

static void stop_if_interrupted(void)
{
	if (!interrupted)
		return;
	gt_ab_progress_clear();
	remove_scratch();
	catch_signals(SIG_DFL);
	raise(interrupted);
	exit(128 + interrupted);
}

const char *gt_ab_run_label(const struct gt_ab_run *run, unsigned rounds)
{
	static char buf[64];
	if (run->round)
		snprintf(buf, sizeof(buf), "round %u/%u", run->round, rounds);
	else
		snprintf(buf, sizeof(buf), "warm-up");
	return buf;
}

/* Copies the last lines of the failed command's stderr to ours, indented. */
static void show_stderr_tail(int fd)
{
	char buf[2048];
	off_t end = lseek(fd, 0, SEEK_END);
	if (end <= 0)
		return;
	off_t from = end > (off_t)sizeof(buf) - 1 ? end - (off_t)sizeof(buf) + 1 : 0;
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, from);
	if (n <= 0)
		return;
	buf[n] = '\0';
	char *p = buf;
	int lines = 0;
	for (char *q = buf + n - 1; q > buf; q--)
		if (*q == '\n' && q != buf + n - 1 && ++lines == 10) {
			p = q + 1;
			break;
		}
	fprintf(stderr, "gittrace-ab: the end of its stderr:\n");
	for (char *line = strtok(p, "\n"); line; line = strtok(NULL, "\n"))
		fprintf(stderr, "  %s\n", line);
}

static void report_failure(const struct ctx *c, const struct gt_ab_run *run)
{
	const struct gt_ab_options *o = c->o;
	gt_ab_progress_clear();
	fprintf(stderr, "gittrace-ab: %s'%s' %s (variant %s, %s)%s\n",
		o->keep_going ? "warning: " : "", o->command[0], gt_ab_status_text(run->s.status),
		o->variants[run->variant].name, gt_ab_run_label(run, o->max_rounds),
		o->keep_going ? "; going on" : "");
	if (!o->show_output)
		show_stderr_tail(c->err_fd);
}

static void run_one(struct ctx *c, struct gt_ab_run *run)
{
	const struct gt_ab_options *o = c->o;
	if (c->copy)
		gt_ab_tree_copy(o->template_dir, c->copy);
	if (!o->show_output && (ftruncate(c->err_fd, 0) < 0 || lseek(c->err_fd, 0, SEEK_SET) < 0))
		gt_ab_die_errno("cannot reset the command's stderr file");
	struct gt_ab_spawn_io io = {
		.cwd = c->copy,
		.in_fd = c->null_fd,
		.out_fd = o->show_output ? -1 : c->null_fd,
		.err_fd = o->show_output ? -1 : c->err_fd,
	};
	gt_ab_spawn(c->commands[run->variant], c->envs[run->variant], &io, &run->s);
	run->failed = !WIFEXITED(run->s.status) || WEXITSTATUS(run->s.status);
	if (c->copy)
		gt_ab_tree_remove(c->copy, 0);
}

static struct ctx *ctx_open(const struct gt_ab_options *o)
{
	struct ctx *c = gt_ab_xmalloc(sizeof(*c) + o->nvariants * sizeof(c->envs[0]));
	c->o = o;
	c->workdir = gt_ab_workdir_create(o->workdir_parent);
	scratch = c->workdir;
	gt_ab_die_hook = remove_scratch;
	c->copy = o->template_dir ? gt_ab_xasprintf("%s/repo", c->workdir) : NULL;
	c->null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (c->null_fd < 0)
		gt_ab_die_errno("cannot open '/dev/null'");
	char *err_path = gt_ab_xasprintf("%s/stderr", c->workdir);
	c->err_fd = open(err_path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (c->err_fd < 0)
		gt_ab_die_errno("cannot open '%s'", err_path);
	free(err_path);
	c->commands = gt_ab_xreallocarray(NULL, o->nvariants, sizeof(*c->commands));
	for (size_t i = 0; i < o->nvariants; i++) {
		c->envs[i] = gt_ab_env_for(&o->variants[i], environ, NULL, NULL);
		c->commands[i] = gt_ab_command_for(&o->variants[i], o->command);
	}
	return c;
}

static void ctx_close(struct ctx *c)
{
	for (size_t i = 0; i < c->o->nvariants; i++) {
		gt_ab_env_free(c->envs[i]);
		gt_ab_command_free(c->commands[i]);
	}
	free(c->commands);
	close(c->null_fd);
	close(c->err_fd);
	gt_ab_tree_remove(c->workdir, 1);
	gt_ab_die_hook = NULL;
	scratch = NULL;
	free(c->copy);
	free(c->workdir);
	free(c);
}

const char *gt_ab_stop_name(enum gt_ab_stop stop)
{
	switch (stop) {
	case GT_AB_STOP_PRECISE:
		return "precise";
	case GT_AB_STOP_MAX_ROUNDS:
		return "max_rounds";
	case GT_AB_STOP_MAX_SECONDS:
		return "max_seconds";
	case GT_AB_STOP_ROUNDS:
		break;
	}
	return "rounds";
}

static double seconds_since(const struct timespec *start)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - start->tv_sec) + (double)(now.tv_nsec - start->tv_nsec) / 1e9;
}

/* Whether another measured round is due after round (1..), and if not, why. */
static int more_rounds(const struct gt_ab_options *o, struct gt_ab_result *res, unsigned round,
		       const struct timespec *start, gt_ab_precise_fn *precise)
{
	if (round < o->rounds)
		return 1;
	if (!o->precision)
		res->stop = GT_AB_STOP_ROUNDS;
	else if (precise(o, res))
		res->stop = GT_AB_STOP_PRECISE;
	else if (round >= o->max_rounds)
		res->stop = GT_AB_STOP_MAX_ROUNDS;
	else if (o->max_seconds && seconds_since(start) >= o->max_seconds)
		res->stop = GT_AB_STOP_MAX_SECONDS;
	else
		return 1;
	return 0;
}

void gt_ab_method_run(const struct gt_ab_options *o, struct gt_ab_result *res,
		      gt_ab_precise_fn *precise)
{
	size_t total = (size_t)(o->warmups + o->max_rounds) * o->nvariants;
	memset(res, 0, sizeof(*res));
	res->runs = gt_ab_xreallocarray(NULL, total, sizeof(*res->runs));

	struct ctx *c = ctx_open(o);
	struct gt_ab_rng rng;
	gt_ab_rng_init(&rng, o->seed);
	size_t *order = gt_ab_xreallocarray(NULL, o->nvariants, sizeof(*order));
	catch_signals(on_signal);
	struct timespec start;
	clock_gettime(CLOCK_MONOTONIC, &start);

	for (unsigned round = 0; round == 0 || more_rounds(o, res, round - 1, &start, precise);
	     round++) {
		/* Round 0 holds the warm-ups, each variant in the given order. */
		unsigned repeat = round ? 1 : o->warmups;
		for (unsigned k = 0; k < repeat; k++) {
			if (round)
				gt_ab_shuffle(&rng, order, o->nvariants);
			else
				for (size_t i = 0; i < o->nvariants; i++)
					order[i] = i;
			for (size_t i = 0; i < o->nvariants; i++) {
				struct gt_ab_run *run = &res->runs[res->nruns++];
				memset(run, 0, sizeof(*run));
				run->round = round;
				run->variant = order[i];
				gt_ab_progress_show(round, o->max_rounds,
						    o->variants[order[i]].name,
						    (unsigned)res->nruns, (unsigned)total);
				run_one(c, run);
				stop_if_interrupted();
				if (!run->failed)
					continue;
				report_failure(c, run);
				if (!res->failures++)
					res->exit_code = gt_ab_status_exit_code(run->s.status);
				if (!o->keep_going) {
					ctx_close(c);
					exit(res->exit_code);
				}
			}
		}
		res->rounds = round;
	}
	gt_ab_progress_clear();
	catch_signals(SIG_DFL);
	free(order);
	ctx_close(c);
}

void gt_ab_result_release(struct gt_ab_result *res)
{
	free(res->runs);
	memset(res, 0, sizeof(*res));
}
