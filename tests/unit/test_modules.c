/*
 * Unit test: an image's module map (model.c, apply_module). A MODULE
 * replaces every module its range overlaps and keeps the map sorted, in
 * whatever order modules arrive; a module of size 0 holds no address and
 * hides none; tens of thousands of modules arriving highest first stay
 * one sorted map.
 */
#include <string.h>

#include "../check.h"
#include "model.h"

static struct gt_model *m;
static struct gt_model_step s;
static struct gt_block b;

static void module(uint64_t base, uint64_t size, const char *path)
{
	struct gt_record r;
	memset(&r, 0, sizeof(r));
	r.known = 1;
	r.raw.tag = GT_REC_MODULE;
	r.u.module.base = base;
	r.u.module.size = size;
	r.u.module.path = (struct gt_str){path, strlen(path)};
	r.u.module.build_id = (struct gt_str){"", 0};
	gt_model_apply(&s, &r);
}

/* The path of the module holding ip, "" if none. */
static const char *at(uint64_t ip)
{
	const struct gt_module *mod = gt_image_module(s.img, ip);
	return mod ? mod->path : "";
}

static int sorted_apart(void)
{
	for (size_t i = 1; i < s.img->nmods; i++)
		if (s.img->mods[i - 1].base + s.img->mods[i - 1].size > s.img->mods[i].base)
			return 0;
	return 1;
}

int main(void)
{
	m = gt_model_new();
	b.h.major = GT_FORMAT_MAJOR;
	b.h.image_id = 1;
	gt_model_block_begin(&s, m, &b);

	module(0x3000, 0x1000, "c");
	module(0x1000, 0x1000, "a");
	module(0x5000, 0x1000, "e");
	CHECK(s.img->nmods == 3 && sorted_apart());
	CHECK(!strcmp(at(0x1fff), "a") && !strcmp(at(0x3000), "c") && !strcmp(at(0x2000), ""));

	/* Overlapping c's end and e's start: both go, a stays. */
	module(0x3800, 0x2000, "ce");
	CHECK(s.img->nmods == 2 && sorted_apart());
	CHECK(!strcmp(at(0x3000), "") && !strcmp(at(0x57ff), "ce") && !strcmp(at(0x1000), "a"));

	/* The same range again (the map rewritten after a dlopen): replaced, not added. */
	module(0x3800, 0x2000, "ce2");
	CHECK(s.img->nmods == 2 && !strcmp(at(0x4000), "ce2"));

	/* Size 0 inside a's range: not kept, a still found. */
	module(0x1800, 0, "empty");
	CHECK(s.img->nmods == 2 && !strcmp(at(0x1900), "a"));

	/* A size running past the address space: kept, ending at the top. */
	module(UINT64_MAX - 0xfff, 0x2000, "top");
	CHECK(s.img->nmods == 3 && !strcmp(at(UINT64_MAX), "top"));

	/* Many, highest first, over the ones above: one sorted map of them all. */
	const uint64_t n = 20000;
	for (uint64_t i = n; i > 0; i--)
		module(0x100000 + i * 0x1000, 0x1000, i % 2 ? "odd" : "even");
	CHECK(s.img->nmods == 3 + n && sorted_apart());
	CHECK(!strcmp(at(0x100000 + 7 * 0x1000 + 5), "odd") &&
	      !strcmp(at(0x100000 + n * 0x1000), "even"));
	/* One range over all of them replaces them all. */
	module(0x100000, (n + 1) * 0x1000, "all");
	CHECK(s.img->nmods == 4 && sorted_apart() && !strcmp(at(0x100000 + 0x1234), "all"));

	gt_model_block_end(&s);
	gt_model_free(m);
	return check_result("modules");
}
