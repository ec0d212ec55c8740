/*
 * Quantities as the reports write them for people: bytes in binary units,
 * seconds in the unit that keeps their digits.
 */
#ifndef GT_UNITS_H
#define GT_UNITS_H

#include <stddef.h>
#include <stdint.h>

/* "1.5 GiB", "128 MiB", "4 KiB", "12 B": exact when a whole unit. */
void gt_format_bytes(char *buf, size_t size, uint64_t bytes);

/*
 * A duration: "2.315 s" from 10 ms up (and 0), as the reports always
 * wrote it; below, "4.2 ms", "380 µs" or "95 ns", where "0.000 s" said
 * nothing about a short process's times. Returned by value, so that one call can sit in
 * a printf's arguments: gt_format_seconds(t).text lives to the end of the
 * full expression.
 */
struct gt_seconds_text {
	char text[24];
};
struct gt_seconds_text gt_format_seconds(double seconds);

#endif /* GT_UNITS_H */
