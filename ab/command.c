/* A variant's copy of the command (command.h). */
#include "command.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "die.h"
#include "gittrace/git_argv.h"

/*
 * Whether the n bytes at a name the variable key does: git ignores case in
 * the section and the name, not in a subsection (between the first dot
 * and the last).
 */
static int same_key(const char *a, size_t n, const char *key)
{
	if (strlen(key) != n)
		return 0;
	const char *first = memchr(a, '.', n), *last = first;
	for (const char *p = first; p; p = memchr(p + 1, '.', (size_t)(a + n - p - 1)))
		last = p;
	for (size_t i = 0; i < n; i++) {
		int exact = first && a + i > first && a + i < last;
		if (exact ? a[i] != key[i]
			  : tolower((unsigned char)a[i]) != tolower((unsigned char)key[i]))
			return 0;
	}
	return 1;
}

/* The variant's value for a `-c KEY[=VALUE]` word's key; NULL if it sets none. */
static const struct gt_ab_setting *setting_for(const struct gt_ab_variant *v, const char *word)
{
	const char *eq = strchr(word, '=');
	size_t n = eq ? (size_t)(eq - word) : strlen(word);
	for (size_t i = 0; i < v->nsettings; i++)
		if (same_key(word, n, v->settings[i].key))
			return &v->settings[i];
	return NULL;
}

char **gt_ab_command_for(const struct gt_ab_variant *v, char *const *argv)
{
	size_t n = 0;
	while (argv[n])
		n++;
	char **out = gt_ab_xreallocarray(NULL, n + 1, sizeof(*out));
	for (size_t i = 0; i < n; i++)
		out[i] = gt_ab_xstrdup(argv[i]);
	out[n] = NULL;
	if (!n || strcmp(gt_git_basename(argv[0]), "git") != 0)
		return out;
	/* The -c values among git's global options, which end at the subcommand. */
	size_t end = gt_git_options_end(n, (const char *const *)argv);
	for (size_t i = 1; i + 1 < end; i++) {
		if (!gt_git_option_takes_value(argv[i]))
			continue;
		const struct gt_ab_setting *s =
			strcmp(argv[i], "-c") == 0 ? setting_for(v, argv[i + 1]) : NULL;
		i++;
		if (s) {
			free(out[i]);
			out[i] = gt_ab_xasprintf("%s=%s", s->key, s->value);
		}
	}
	return out;
}

void gt_ab_command_free(char **argv)
{
	for (char **a = argv; a && *a; a++)
		free(*a);
	free(argv);
}
