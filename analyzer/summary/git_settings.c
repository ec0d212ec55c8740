/* The pack window settings given on a git command line (git_settings.h). */
#include "git_settings.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "gittrace/git_argv.h"

/* The window key "key=value" sets (config keys ignore case), NULL if none. */
static const char *window_key(const char *setting)
{
	static const char *const keys[] = {"core.packedGitLimit", "core.packedGitWindowSize"};
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		size_t n = strlen(keys[i]);
		if (!strncasecmp(setting, keys[i], n) && setting[n] == '=')
			return keys[i];
	}
	return NULL;
}

const char *gt_window_settings_given(const struct gt_image *img, char *buf, size_t size)
{
	buf[0] = '\0';
	if (!img->argc || strcmp(gt_git_basename(img->argv[0]), "git") != 0)
		return buf;
	const char *const *argv = (const char *const *)img->argv;
	size_t end = gt_git_options_end(img->argc, argv), used = 0;
	for (size_t i = 1; i + 1 < end; i++) {
		if (strcmp(argv[i], "-c") != 0)
			continue;
		const char *key = window_key(argv[++i]);
		if (key && used < size)
			used += (size_t)snprintf(buf + used, size - used, "%s-c %s%s",
						 used ? " " : "", key, argv[i] + strlen(key));
	}
	return buf;
}
