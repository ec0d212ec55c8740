/*
 * A word of a command as a POSIX shell reads it back: as it is when it is
 * plain, single-quoted when not, in $'...' with \xHH escapes when it holds
 * control characters or bytes that are not UTF-8 (the report stays one
 * printable line of UTF-8, and the command runs the same when pasted).
 */
#ifndef GT_SHELL_QUOTE_H
#define GT_SHELL_QUOTE_H

#include <stddef.h>

/* Appends arg to buf (capacity cap, NUL-terminated), a space first if buf is not empty. */
void gt_shell_quote(char *buf, size_t cap, const char *arg);

#endif /* GT_SHELL_QUOTE_H */
