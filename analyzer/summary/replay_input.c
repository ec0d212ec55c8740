/* gittrace replay's JSON for the verdict (see replay_input.h), read with jansson. */
#include "replay_input.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "die.h"

/* A number member, NaN for null; dies for anything else. */
static double number(const char *path, json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);
	if (json_is_null(v))
		return NAN;
	if (!json_is_number(v))
		gt_die("'%s' is not a gittrace replay's JSON: no number '%s'", path, key);
	return json_number_value(v);
}

static void read_allocator(const char *path, json_t *a, struct gt_replay_input_allocator *out)
{
	const char *name = json_string_value(json_object_get(a, "name"));
	if (!name)
		gt_die("'%s' is not a gittrace replay's JSON: an allocator has no name", path);
	out->name = gt_xstrndup(name, strlen(name));
	out->seconds = number(path, a, "seconds");
	out->ci_low = number(path, a, "ci_low");
	out->ci_high = number(path, a, "ci_high");
}

static void read_image(const char *path, json_t *img, struct gt_replay_input_image *out)
{
	json_t *allocators = json_object_get(img, "allocators");
	if (!json_is_integer(json_object_get(img, "pid")) || !json_is_array(allocators) ||
	    !json_array_size(allocators))
		gt_die("'%s' is not a gittrace replay's JSON: an image has no pid or allocators",
		       path);
	out->pid = (long)json_integer_value(json_object_get(img, "pid"));
	out->nallocators = json_array_size(allocators);
	out->allocators = gt_xcalloc(out->nallocators, sizeof(*out->allocators));
	for (size_t i = 0; i < out->nallocators; i++)
		read_allocator(path, json_array_get(allocators, i), &out->allocators[i]);
	if (strcmp(out->allocators[0].name, "system"))
		gt_die("'%s' is not a gittrace replay's JSON: the first allocator is not the "
		       "system's",
		       path);
}

void gt_replay_input_read(const char *path, struct gt_replay_input *in)
{
	json_error_t err;
	memset(in, 0, sizeof(*in));
	json_t *root = json_load_file(path, 0, &err);
	if (!root && err.line < 1) /* the file itself: jansson names it in err.text */
		gt_die("cannot read the replay: %s", err.text);
	if (!root)
		gt_die("cannot read the replay '%s': %s (line %d)", path, err.text, err.line);
	json_t *images = json_object_get(root, "images");
	if (json_integer_value(json_object_get(root, "gittrace_replay")) != 1 ||
	    !json_is_array(images))
		gt_die("'%s' is not a gittrace replay's JSON (gittrace replay --json)", path);
	in->n = json_array_size(images);
	in->images = gt_xcalloc(in->n, sizeof(*in->images));
	for (size_t i = 0; i < in->n; i++)
		read_image(path, json_array_get(images, i), &in->images[i]);
	json_decref(root);
}

/* Adds an image's allocator a (against its system allocator sys) to d. */
static void add(struct gt_replay_delta *d, const struct gt_replay_input_allocator *a,
		const struct gt_replay_input_allocator *sys)
{
	d->seconds += a->seconds - sys->seconds;
	/* The interval of the ratio, as seconds added to the system's. */
	d->low += (a->ci_low - 1) * sys->seconds;
	d->high += (a->ci_high - 1) * sys->seconds;
}

struct gt_replay_delta *gt_replay_input_deltas(const struct gt_replay_input *in, long pid,
					       size_t *n)
{
	struct gt_replay_delta *v = NULL;
	*n = 0;
	for (size_t i = 0; i < in->n; i++) {
		const struct gt_replay_input_image *img = &in->images[i];
		if (pid >= 0 && img->pid != pid)
			continue;
		for (size_t a = 1; a < img->nallocators; a++) {
			size_t k = 0;
			while (k < *n && strcmp(v[k].allocator, img->allocators[a].name))
				k++;
			if (k == *n) {
				v = gt_xrealloc(v, (*n + 1) * sizeof(*v));
				memset(&v[k], 0, sizeof(v[k]));
				v[k].allocator = img->allocators[a].name;
				++*n;
			}
			add(&v[k], &img->allocators[a], &img->allocators[0]);
		}
	}
	return v;
}

void gt_replay_input_release(struct gt_replay_input *in)
{
	for (size_t i = 0; i < in->n; i++) {
		for (size_t a = 0; a < in->images[i].nallocators; a++)
			free(in->images[i].allocators[a].name);
		free(in->images[i].allocators);
	}
	free(in->images);
	memset(in, 0, sizeof(*in));
}
