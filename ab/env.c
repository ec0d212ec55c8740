/* Per-variant environments (see env.h). */
#include "env.h"
#include "die.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct env {
	char **v;
	size_t n;
};

static void push(struct env *e, char *s)
{
	e->v = gt_ab_xreallocarray(e->v, e->n + 1, sizeof(*e->v));
	e->v[e->n++] = s;
}

static int is_var(const char *entry, const char *name)
{
	size_t n = strlen(name);
	return !strncmp(entry, name, n) && entry[n] == '=';
}

static int replaced_by(const char *entry, const char *const *extra)
{
	for (; extra && *extra; extra++) {
		const char *eq = strchr(*extra, '=');
		size_t n = eq ? (size_t)(eq - *extra) : strlen(*extra);
		if (!strncmp(entry, *extra, n) && entry[n] == '=')
			return 1;
	}
	return 0;
}

static unsigned long config_count(const char *value)
{
	char *end;
	errno = 0;
	unsigned long n = strtoul(value, &end, 10);
	if (errno || end == value || *end || *value == '-')
		gt_ab_die("bad GIT_CONFIG_COUNT '%s' in the environment", value);
	return n;
}

/*
 * git reads GIT_CONFIG_PARAMETERS (where git puts its own `-c` settings for
 * the programs it runs, and a script or the user may put theirs) after the
 * GIT_CONFIG_COUNT list: a key set there outranked the variant's, and
 * --confirm's git defaults measured the lowered windows again. So where the
 * environment holds it, the variant's settings go at its end as well,
 * quoted as git quotes them (quote.c, sq_quote_buf: ' and ! closed out of
 * the quotes); a `-c` of the command's own still comes after them.
 */
static char *config_parameters(const char *old, const struct gt_ab_variant *v)
{
	size_t len = strlen("GIT_CONFIG_PARAMETERS=") + strlen(old) + 1;
	for (size_t i = 0; i < v->nsettings; i++) /* each byte may take 4: '\'' */
		len += 4 + 4 * (strlen(v->settings[i].key) + 1 + strlen(v->settings[i].value));
	char *s = gt_ab_xmalloc(len), *o = s;
	o += sprintf(o, "GIT_CONFIG_PARAMETERS=%s", old);
	for (size_t i = 0; i < v->nsettings; i++) {
		const char *parts[] = {v->settings[i].key, "=", v->settings[i].value};
		*o++ = ' ';
		*o++ = '\'';
		for (size_t k = 0; k < 3; k++)
			for (const char *c = parts[k]; *c; c++) {
				if (*c == '\'' || *c == '!') {
					memcpy(o, "'\\", 2);
					o += 2;
					*o++ = *c;
					*o++ = '\'';
				} else {
					*o++ = *c;
				}
			}
		*o++ = '\'';
	}
	*o = '\0';
	return s;
}

char **gt_ab_env_for(const struct gt_ab_variant *v, char *const *base, const char *first_preload,
		     const char *const *extra)
{
	struct env e = {NULL, 0};
	const char *old_preload = NULL;
	unsigned long count = 0;
	int change_preload = first_preload || v->preload;

	for (char *const *p = base; *p; p++) {
		if (replaced_by(*p, extra))
			continue;
		if (change_preload && is_var(*p, "LD_PRELOAD")) {
			old_preload = *p + strlen("LD_PRELOAD=");
			continue;
		}
		if (v->nsettings && is_var(*p, "GIT_CONFIG_COUNT")) {
			count = config_count(*p + strlen("GIT_CONFIG_COUNT="));
			continue;
		}
		if (v->nsettings && is_var(*p, "GIT_CONFIG_PARAMETERS")) {
			push(&e, config_parameters(*p + strlen("GIT_CONFIG_PARAMETERS="), v));
			continue;
		}
		push(&e, gt_ab_xstrdup(*p));
	}
	if (change_preload) {
		const char *parts[3] = {first_preload, v->preload,
					old_preload && *old_preload ? old_preload : NULL};
		char *s = gt_ab_xstrdup("LD_PRELOAD=");
		int any = 0;
		for (int i = 0; i < 3; i++) {
			if (!parts[i])
				continue;
			char *t = gt_ab_xasprintf("%s%s%s", s, any ? ":" : "", parts[i]);
			free(s);
			s = t;
			any = 1;
		}
		push(&e, s);
	}
	for (size_t i = 0; i < v->nsettings; i++) {
		push(&e, gt_ab_xasprintf("GIT_CONFIG_KEY_%lu=%s", count + i, v->settings[i].key));
		push(&e,
		     gt_ab_xasprintf("GIT_CONFIG_VALUE_%lu=%s", count + i, v->settings[i].value));
	}
	if (v->nsettings)
		push(&e, gt_ab_xasprintf("GIT_CONFIG_COUNT=%lu", count + v->nsettings));
	for (; extra && *extra; extra++)
		push(&e, gt_ab_xstrdup(*extra));
	push(&e, NULL);
	return e.v;
}

void gt_ab_env_free(char **env)
{
	for (char **p = env; p && *p; p++)
		free(*p);
	free(env);
}
