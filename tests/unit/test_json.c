/*
 * Unit test: JSON string escaping (quotes, backslashes, control bytes,
 * valid and invalid UTF-8) and the writer's commas.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "../check.h"
#include "json.h"

static char *escaped(const char *s, size_t n)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	gt_json_escape(f, s, n);
	fclose(f);
	return buf;
}

static void expect(const char *in, size_t n, const char *want)
{
	char *got = escaped(in, n);
	if (strcmp(got, want))
		fprintf(stderr, "escape: got %s, want %s\n", got, want);
	CHECK(!strcmp(got, want));
	free(got);
}

int main(void)
{
	expect("plain", 5, "\"plain\"");
	expect("a\"b\\c", 5, "\"a\\\"b\\\\c\"");
	expect("l1\nl2\t", 6, "\"l1\\nl2\\t\"");
	expect("\x01\x1f\x7f", 3, "\"\\u0001\\u001f\\u007f\"");
	expect("nul\0x", 5, "\"nul\\u0000x\"");
	expect("caf\xc3\xa9", 5, "\"caf\xc3\xa9\"");		/* valid 2-byte */
	expect("\xe2\x82\xac", 3, "\"\xe2\x82\xac\"");		/* valid 3-byte */
	expect("\xff", 1, "\"\\ufffd\"");			/* never valid */
	expect("\xc3", 1, "\"\\ufffd\"");			/* truncated */
	expect("\xc0\xaf", 2, "\"\\ufffd\\ufffd\"");		/* overlong */
	expect("\xed\xa0\x80", 3, "\"\\ufffd\\ufffd\\ufffd\""); /* surrogate */

	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	struct gt_json j;
	gt_json_init(&j, f);
	gt_json_begin_object(&j);
	gt_json_key(&j, "a");
	gt_json_uint(&j, 1);
	gt_json_key(&j, "b");
	gt_json_begin_array(&j);
	gt_json_str(&j, "x");
	gt_json_null(&j);
	gt_json_double(&j, 0.5);
	gt_json_end_array(&j);
	gt_json_key(&j, "c");
	gt_json_bool(&j, 0);
	gt_json_end_object(&j);
	fclose(f);
	CHECK(!strcmp(buf, "{\"a\":1,\"b\":[\"x\",null,0.5],\"c\":false}"));
	free(buf);
	return check_result("test_json");
}
