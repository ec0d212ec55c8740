/* How variants compose (see compose.h). */
#include "compose.h"
#include "die.h"

#include <stdlib.h>
#include <string.h>

static const char *setting_of(const struct gt_ab_variant *v, const char *key)
{
	for (size_t i = 0; i < v->nsettings; i++)
		if (!strcmp(v->settings[i].key, key))
			return v->settings[i].value;
	return NULL;
}

/* Puts settings[0..n) in front of v's own settings. */
static void prepend_settings(struct gt_ab_variant *v, const struct gt_ab_setting *settings,
			     size_t n)
{
	if (!n)
		return;
	struct gt_ab_setting *own = v->settings;
	size_t nown = v->nsettings;
	v->settings = NULL;
	v->nsettings = 0;
	for (size_t i = 0; i < n; i++)
		gt_ab_variant_add_setting(v, settings[i].key, settings[i].value);
	v->settings = gt_ab_xreallocarray(v->settings, n + nown, sizeof(*v->settings));
	memcpy(v->settings + n, own, nown * sizeof(*own));
	v->nsettings = n + nown;
	free(own);
}

static void add_common(struct gt_ab_variant *v, const struct gt_ab_variant *common)
{
	for (size_t i = 0; i < common->nsettings; i++)
		if (setting_of(v, common->settings[i].key))
			gt_ab_usage_error("variant '%s' sets '%s', which --common sets for every "
					  "variant",
					  v->name, common->settings[i].key);
	prepend_settings(v, common->settings, common->nsettings);
	if (!common->alloc)
		return;
	if (v->alloc)
		gt_ab_usage_error("variant '%s' names an allocator, and so does --common", v->name);
	v->alloc = gt_ab_xstrdup(common->alloc);
	v->preload = common->preload ? gt_ab_xstrdup(common->preload) : NULL;
}

void gt_ab_variants_compose(struct gt_ab_variant *v, size_t n, const struct gt_ab_variant *common)
{
	int any_spec = 0;
	for (size_t i = 0; i < n; i++)
		any_spec |= !v[i].lone_alloc;
	for (size_t i = 1; any_spec && i < n; i++)
		if (v[i].lone_alloc)
			prepend_settings(&v[i], v[0].settings, v[0].nsettings);
	for (size_t i = 0; common && i < n; i++)
		add_common(&v[i], common);
}

/* Whether a and b have the same settings, in any order. */
static int same_settings(const struct gt_ab_variant *a, const struct gt_ab_variant *b)
{
	if (a->nsettings != b->nsettings)
		return 0;
	for (size_t i = 0; i < a->nsettings; i++) {
		const char *value = setting_of(b, a->settings[i].key);
		if (!value || strcmp(value, a->settings[i].value))
			return 0;
	}
	return 1;
}

static int same_allocator(const struct gt_ab_variant *a, const struct gt_ab_variant *b)
{
	if (!a->preload || !b->preload)
		return !a->preload && !b->preload;
	return !strcmp(a->preload, b->preload);
}

size_t gt_ab_variants_warn_mixed(const struct gt_ab_variant *v, size_t n)
{
	size_t warned = 0;
	for (size_t i = 1; i < n; i++) {
		if (same_allocator(&v[0], &v[i]) || same_settings(&v[0], &v[i]))
			continue;
		gt_ab_warn("variant '%s' differs from the baseline '%s' in both its allocator and "
			   "its git settings: its difference cannot be put down to either",
			   v[i].name, v[0].name);
		warned++;
	}
	return warned;
}
