/* The pack window settings given on a git command line (git_settings.h). */
#include "git_settings.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "gittrace/git_argv.h"
#include "shell_quote.h"

/*
 * Whether a -c word sets a window key (config keys ignore case). Longer
 * than 100 bytes it holds no size git reads: left out, so that its words
 * always fit gt_window_settings_given's buffer.
 */
static int is_window_setting(const char *setting)
{
	static const char *const keys[] = {"core.packedGitLimit", "core.packedGitWindowSize"};
	if (strlen(setting) > 100)
		return 0;
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		size_t n = strlen(keys[i]);
		if (!strncasecmp(setting, keys[i], n) && setting[n] == '=')
			return 1;
	}
	return 0;
}

/* Appends word to buf (size bytes) after a space, if all of it fits. */
static void add_word(char *buf, size_t size, const char *word)
{
	size_t used = strlen(buf);
	if (used + 1 + strlen(word) < size)
		snprintf(buf + used, size - used, "%s%s", used ? " " : "", word);
}

size_t gt_git_repo_options(const struct gt_image *img, struct gt_git_option *opts, size_t max)
{
	if (!img->argc || strcmp(gt_git_basename(img->argv[0]), "git") != 0)
		return 0;
	const char *const *argv = (const char *const *)img->argv;
	size_t end = gt_git_options_end(img->argc, argv), n = 0;
	for (size_t i = 1; i < end && n < max; i++) {
		const char *a = argv[i];
		int with_value =
			!strcmp(a, "-C") || !strcmp(a, "--git-dir") || !strcmp(a, "--work-tree");
		if (!with_value && strcmp(a, "--bare") && strncmp(a, "--git-dir=", 10) &&
		    strncmp(a, "--work-tree=", 12))
			continue;
		if (with_value && i + 1 >= end)
			break; /* its value missing: git refused the command */
		opts[n++] = (struct gt_git_option){a, with_value ? argv[++i] : NULL};
	}
	return n;
}

const char *gt_git_with_repo_options(const struct gt_image *img, char *buf, size_t size)
{
	snprintf(buf, size, "git");
	struct gt_git_option opts[GT_GIT_REPO_OPTIONS_MAX];
	size_t n = gt_git_repo_options(img, opts, GT_GIT_REPO_OPTIONS_MAX);
	for (size_t i = 0; i < n; i++) {
		char words[1024] = "";
		gt_shell_quote(words, sizeof(words), opts[i].name);
		if (opts[i].value)
			gt_shell_quote(words, sizeof(words), opts[i].value);
		add_word(buf, size, words);
	}
	return buf;
}

const char *gt_window_settings_given(const struct gt_image *img, char *buf, size_t size)
{
	buf[0] = '\0';
	if (!img->argc || strcmp(gt_git_basename(img->argv[0]), "git") != 0)
		return buf;
	const char *const *argv = (const char *const *)img->argv;
	size_t end = gt_git_options_end(img->argc, argv);
	for (size_t i = 1; i + 1 < end; i++) {
		if (strcmp(argv[i], "-c") != 0 || !is_window_setting(argv[++i]))
			continue;
		/* As given, quoted (at most 4 bytes a byte: \xHH); whole words only. */
		char word[512] = "-c";
		gt_shell_quote(word, sizeof(word), argv[i]);
		add_word(buf, size, word);
	}
	return buf;
}
