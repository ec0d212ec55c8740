/*
 * A trace's paths and argv are bytes; JSON, the HTML page and a terminal
 * want UTF-8. The writers pass valid UTF-8 through and replace the rest.
 */
#ifndef GT_UTF8_H
#define GT_UTF8_H

#include <stddef.h>

/*
 * Length of the valid UTF-8 sequence at s (n >= 1 bytes left), 0 if it is
 * none: overlong forms, surrogates and values past U+10FFFF are invalid.
 */
size_t gt_utf8_len(const unsigned char *s, size_t n);

#endif /* GT_UTF8_H */
