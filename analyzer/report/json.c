/*
 * JSON writer. See json.h.
 */
#include "json.h"

#include <math.h>
#include <string.h>

#include "die.h"
#include "utf8.h"

void gt_json_init(struct gt_json *j, FILE *out)
{
	memset(j, 0, sizeof(*j));
	j->out = out;
}

/* Before any value: a comma if it is not the first in its container. */
static void value_start(struct gt_json *j)
{
	if (j->need_comma[j->depth])
		fputc(',', j->out);
	j->need_comma[j->depth] = 1;
}

static void open(struct gt_json *j, char c)
{
	value_start(j);
	fputc(c, j->out);
	if (++j->depth >= GT_JSON_MAX_DEPTH)
		BUG("JSON nested too deep");
	j->need_comma[j->depth] = 0;
}

static void close_(struct gt_json *j, char c)
{
	if (j->depth == 0)
		BUG("JSON close without open");
	j->depth--;
	fputc(c, j->out);
}

void gt_json_begin_object(struct gt_json *j)
{
	open(j, '{');
}

void gt_json_end_object(struct gt_json *j)
{
	close_(j, '}');
}

void gt_json_begin_array(struct gt_json *j)
{
	open(j, '[');
}

void gt_json_end_array(struct gt_json *j)
{
	close_(j, ']');
}

void gt_json_key(struct gt_json *j, const char *key)
{
	value_start(j);
	gt_json_escape(j->out, key, strlen(key));
	fputc(':', j->out);
	/* The value that follows must not add another comma. */
	j->need_comma[j->depth] = 0;
}

void gt_json_strn(struct gt_json *j, const char *s, size_t n)
{
	value_start(j);
	gt_json_escape(j->out, s ? s : "", s ? n : 0);
}

void gt_json_str(struct gt_json *j, const char *s)
{
	gt_json_strn(j, s, s ? strlen(s) : 0);
}

void gt_json_uint(struct gt_json *j, uint64_t v)
{
	value_start(j);
	fprintf(j->out, "%llu", (unsigned long long)v);
}

void gt_json_int(struct gt_json *j, int64_t v)
{
	value_start(j);
	fprintf(j->out, "%lld", (long long)v);
}

void gt_json_double(struct gt_json *j, double v)
{
	value_start(j);
	if (isfinite(v))
		fprintf(j->out, "%.6g", v);
	else
		fputs("null", j->out);
}

void gt_json_bool(struct gt_json *j, int v)
{
	value_start(j);
	fputs(v ? "true" : "false", j->out);
}

void gt_json_null(struct gt_json *j)
{
	value_start(j);
	fputs("null", j->out);
}

void gt_json_escape(FILE *out, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t plain = 0; /* start of the bytes that go out as they are, in one write */
	fputc('"', out);
	for (size_t i = 0; i < n;) {
		unsigned char c = s[i];
		size_t len = c == '"' || c == '\\' || c < 0x20 || c == 0x7f
				     ? 0
				     : gt_utf8_len(s + i, n - i);
		if (len) {
			i += len;
			continue;
		}
		fwrite(s + plain, 1, i - plain, out);
		if (c == '"' || c == '\\') {
			fputc('\\', out);
			fputc(c, out);
		} else if (c == '\n') {
			fputs("\\n", out);
		} else if (c == '\t') {
			fputs("\\t", out);
		} else if (c < 0x20 || c == 0x7f) {
			fprintf(out, "\\u%04x", c);
		} else {
			fputs("\\ufffd", out); /* not UTF-8 */
		}
		plain = ++i;
	}
	fwrite(s + plain, 1, n - plain, out);
	fputc('"', out);
}

void gt_json_kv_uint(struct gt_json *j, const char *key, uint64_t v)
{
	gt_json_key(j, key);
	gt_json_uint(j, v);
}

void gt_json_kv_int(struct gt_json *j, const char *key, int64_t v)
{
	gt_json_key(j, key);
	gt_json_int(j, v);
}

void gt_json_kv_double(struct gt_json *j, const char *key, double v)
{
	gt_json_key(j, key);
	gt_json_double(j, v);
}

void gt_json_kv_str(struct gt_json *j, const char *key, const char *s)
{
	gt_json_key(j, key);
	gt_json_str(j, s);
}

void gt_json_kv_str_or_null(struct gt_json *j, const char *key, const char *s)
{
	gt_json_key(j, key);
	if (s)
		gt_json_str(j, s);
	else
		gt_json_null(j);
}

void gt_json_kv_bool(struct gt_json *j, const char *key, int v)
{
	gt_json_key(j, key);
	gt_json_bool(j, v);
}

void gt_json_strs(struct gt_json *j, char *const *v, size_t n)
{
	gt_json_begin_array(j);
	for (size_t i = 0; i < n; i++)
		gt_json_str(j, v[i]);
	gt_json_end_array(j);
}
