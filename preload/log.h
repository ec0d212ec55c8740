/* Warnings from inside the traced program (log.c). */
#ifndef GT_LOG_H
#define GT_LOG_H

#include <stdint.h>

/* Notes which file stderr is: at the start of each image, before any warning. */
void gt_log_start(void);

/*
 * Writes "gittrace: " and the given strings (NULL-terminated list) and a
 * newline to stderr with one write(2), if fd 2 is still the file it was
 * when the image started (none is written otherwise). Allocation-free,
 * async-signal-safe.
 */
void gt_warn(const char *first, ...) __attribute__((sentinel));

/* Formats v in decimal into buf (at least 21 bytes); returns buf. */
char *gt_utoa(uint64_t v, char *buf);

#endif /* GT_LOG_H */
