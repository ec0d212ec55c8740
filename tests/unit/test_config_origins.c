/*
 * Unit test: reading what `git config -z --show-scope --show-origin
 * --get-regexp` prints (config_origins.h): values with and without a value,
 * in git's order, and output that is not that refused whole. The lookup
 * itself runs git: tests/git/config_origins.sh.
 */
#include <string.h>

#include "../check.h"
#include "config_origins.h"

/* PARSE(o, LITERAL): parses a string literal with its NULs, not its final one. */
#define PARSE(o, lit) gt_config_origins_parse(o, lit, sizeof(lit) - 1)

int main(void)
{
	struct gt_config_origins o = {0};
	CHECK(PARSE(&o, "global\0file:/h/.gitconfig\0core.packedgitlimit\n1m\0"
			"local\0file:.git/config\0core.packedgitwindowsize\0") == 0);
	CHECK(o.n == 2);
	if (o.n == 2) {
		CHECK(!strcmp(o.v[0].scope, "global"));
		CHECK(!strcmp(o.v[0].origin, "file:/h/.gitconfig"));
		CHECK(!strcmp(o.v[0].key, "core.packedgitlimit"));
		CHECK(!strcmp(o.v[0].value, "1m"));
		/* A key without a value (`[core] packedGitWindowSize`). */
		CHECK(!strcmp(o.v[1].key, "core.packedgitwindowsize"));
		CHECK(!strcmp(o.v[1].value, ""));
		CHECK(!strcmp(o.v[1].origin, "file:.git/config"));
	}
	gt_config_origins_release(&o);

	/* Nothing set: git prints nothing. */
	CHECK(gt_config_origins_parse(&o, "", 0) == 0 && o.n == 0);

	/* Cut inside a value's fields, plain text (no -z), an empty scope: refused, o empty. */
	CHECK(PARSE(&o, "global\0file:/h/.gitconfig\0core.packedgitlimit\n1m\0global\0file:x") ==
	      -1);
	CHECK(o.n == 0 && o.v == NULL);
	CHECK(PARSE(&o, "global\tfile:/h/.gitconfig\tcore.packedgitlimit 1m\n") == -1);
	CHECK(PARSE(&o, "\0file:x\0core.packedgitlimit\n1m\0") == -1);
	CHECK(o.n == 0);
	return check_result("config_origins");
}
