/* Words quoted for a shell (shell_quote.h). */
#include "shell_quote.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "utf8.h"

/*
 * How many bytes at c (left of them, >= 1) a quoted command writes as they
 * are: a character of valid UTF-8 but a control character. 0: the byte at
 * c goes as \xHH (a control character, or a byte of a sequence that is not
 * UTF-8, which the JSON report would replace: the command would not run
 * the same).
 */
static size_t as_is(const char *c, size_t left)
{
	return iscntrl((unsigned char)*c) ? 0 : gt_utf8_len((const unsigned char *)c, left);
}

/*
 * Appends arg, which holds bytes as_is refuses, to buf at len (capacity
 * cap) in the $'...' quoting of bash, zsh and POSIX.1-2024: each such byte
 * as \xHH, so that the command is one printable line of UTF-8. Returns
 * the new length.
 */
static size_t dollar_quote(char *buf, size_t len, size_t cap, const char *arg)
{
	if (len + 2 < cap)
		len += (size_t)snprintf(buf + len, cap - len, "$'");
	size_t left = strlen(arg);
	for (const char *c = arg; *c && len + 5 < cap;) {
		size_t n = as_is(c, left);
		if (!n) {
			len += (size_t)snprintf(buf + len, cap - len, "\\x%02x", (unsigned char)*c);
			n = 1;
		} else if (*c == '\'' || *c == '\\') {
			len += (size_t)snprintf(buf + len, cap - len, "\\%c", *c);
		} else if (len + n + 5 < cap) {
			memcpy(buf + len, c, n);
			len += n;
		} else {
			break; /* no room for the whole character */
		}
		c += n;
		left -= n;
	}
	if (len + 1 < cap)
		buf[len++] = '\'';
	return len;
}

void gt_shell_quote(char *buf, size_t cap, const char *arg)
{
	size_t len = strlen(buf);
	int hex = 0;
	size_t left = strlen(arg);
	for (const char *c = arg; *c && !hex;) {
		size_t n = as_is(c, left);
		hex = n == 0;
		c += n;
		left -= n;
	}
	if (hex) {
		if (len && len + 1 < cap)
			buf[len++] = ' ';
		buf[dollar_quote(buf, len, cap, arg)] = '\0';
		return;
	}
	int plain = *arg != '\0';
	for (const char *c = arg; *c; c++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./"
			    "=:,+-@%",
			    *c))
			plain = 0;
	if (len && len + 1 < cap)
		buf[len++] = ' ';
	if (!plain && len + 1 < cap)
		buf[len++] = '\'';
	for (const char *c = arg; *c && len + 5 < cap; c++) {
		if (*c == '\'' && !plain) {
			memcpy(buf + len, "'\\''", 4);
			len += 4;
		} else {
			buf[len++] = *c;
		}
	}
	if (!plain && len + 1 < cap)
		buf[len++] = '\'';
	buf[len] = '\0';
}
