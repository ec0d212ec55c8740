/* Parsing --alloc and --variant into variants (see variant.h). */
#define _GNU_SOURCE
#include "variant.h"
#include "allocator.h"
#include "die.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Names end up in file names (--explain) and in JSON keys of scripts. */
static int name_char_ok(char c)
{
	return isalnum((unsigned char)c) || c == '.' || c == '_' || c == '+' || c == '-';
}

static void check_name(const char *name, const char *what)
{
	if (!*name)
		gt_ab_usage_error("empty variant name in '%s'", what);
	for (const char *p = name; *p; p++)
		if (!name_char_ok(*p))
			gt_ab_usage_error(
				"variant name '%s' may only use letters, digits and . _ + -", name);
}

static char *name_of_library(const char *path)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	if (!strncmp(base, "lib", 3) && base[3])
		base += 3;
	char *name = gt_ab_xstrdup(base);
	char *so = strstr(name, ".so");
	if (so && so != name)
		*so = '\0';
	for (char *p = name; *p; p++)
		if (!name_char_ok(*p))
			*p = '_';
	return name;
}

/* where: how messages name what is parsed ("variant 'a'", "--common"). */
static void set_alloc(struct gt_ab_variant *v, const char *alloc, const char *where)
{
	if (v->alloc)
		gt_ab_usage_error("%s names two allocators", where);
	v->alloc = gt_ab_xstrdup(alloc);
	v->preload = gt_ab_allocator_resolve(alloc);
}

void gt_ab_variant_from_alloc(struct gt_ab_variant *v, const char *alloc)
{
	memset(v, 0, sizeof(*v));
	v->name = strchr(alloc, '/') ? name_of_library(alloc) : gt_ab_xstrdup(alloc);
	v->lone_alloc = 1;
	set_alloc(v, alloc, "--alloc");
}

static void add_setting(struct gt_ab_variant *v, const char *kv, const char *where)
{
	const char *eq = strchr(kv, '=');
	size_t klen = eq ? (size_t)(eq - kv) : strlen(kv);
	if (!klen || !memchr(kv, '.', klen))
		gt_ab_usage_error("bad git setting '%s' in %s (want section.key=value)", kv, where);
	char *key = gt_ab_xstrdup(kv);
	key[klen] = '\0';
	gt_ab_variant_add_setting(v, key, eq ? eq + 1 : "true");
	free(key);
}

void gt_ab_variant_add_setting(struct gt_ab_variant *v, const char *key, const char *value)
{
	v->settings = gt_ab_xreallocarray(v->settings, v->nsettings + 1, sizeof(*v->settings));
	struct gt_ab_setting *s = &v->settings[v->nsettings++];
	s->key = gt_ab_xstrdup(key);
	s->value = gt_ab_xstrdup(value);
}

void gt_ab_variant_parse_spec(struct gt_ab_variant *v, const char *spec, const char *where)
{
	char *words = gt_ab_xstrdup(spec);
	char *save = NULL;
	for (char *w = strtok_r(words, " \t\n", &save); w; w = strtok_r(NULL, " \t\n", &save)) {
		if (!strcmp(w, "-c") || !strcmp(w, "--alloc")) {
			char *arg = strtok_r(NULL, " \t\n", &save);
			if (!arg)
				gt_ab_usage_error("'%s' needs an argument in %s", w, where);
			if (w[1] == 'c')
				add_setting(v, arg, where);
			else
				set_alloc(v, arg, where);
		} else if (!strncmp(w, "-c", 2)) {
			add_setting(v, w + 2, where);
		} else if (!strncmp(w, "--alloc=", 8)) {
			set_alloc(v, w + 8, where);
		} else {
			gt_ab_usage_error(
				"unexpected '%s' in %s (want -c KEY=VALUE or --alloc NAME)", w,
				where);
		}
	}
	free(words);
}

void gt_ab_variant_from_spec(struct gt_ab_variant *v, const char *spec)
{
	memset(v, 0, sizeof(*v));
	const char *eq = strchr(spec, '=');
	if (!eq)
		gt_ab_usage_error("--variant wants NAME=SPEC, not '%s'", spec);
	v->name = gt_ab_xstrdup(spec);
	v->name[eq - spec] = '\0';
	check_name(v->name, spec);
	char *where = gt_ab_xasprintf("variant '%s'", v->name);
	gt_ab_variant_parse_spec(v, eq + 1, where);
	free(where);
}

void gt_ab_variant_baseline(struct gt_ab_variant *v, const struct gt_ab_variant *other)
{
	memset(v, 0, sizeof(*v));
	v->name = gt_ab_xstrdup(other->alloc && !other->nsettings ? "system" : "default");
}

void gt_ab_variants_check_unique(const struct gt_ab_variant *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < i; j++)
			if (!strcmp(v[i].name, v[j].name))
				gt_ab_usage_error("two variants are named '%s'", v[i].name);
}

void gt_ab_variant_release(struct gt_ab_variant *v)
{
	for (size_t i = 0; i < v->nsettings; i++) {
		free(v->settings[i].key);
		free(v->settings[i].value);
	}
	free(v->settings);
	free(v->name);
	free(v->alloc);
	free(v->preload);
	memset(v, 0, sizeof(*v));
}
