/*
 * Quantities for people. See units.h.
 */
#include "units.h"

#include <stdio.h>

void gt_format_bytes(char *buf, size_t size, uint64_t bytes)
{
	static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
	int u = 0;
	double x = (double)bytes;
	while (x >= 1024 && u < 5) {
		x /= 1024;
		u++;
	}
	if (u == 0 || x == (double)(uint64_t)x)
		snprintf(buf, size, "%.0f %s", x, units[u]);
	else
		snprintf(buf, size, "%.1f %s", x, units[u]);
}

struct gt_seconds_text gt_format_seconds(double seconds)
{
	struct gt_seconds_text t;
	if (seconds == 0 || seconds >= 0.01)
		snprintf(t.text, sizeof(t.text), "%.3f s", seconds);
	else if (seconds >= 0.001)
		snprintf(t.text, sizeof(t.text), "%.1f ms", seconds * 1e3);
	else if (seconds >= 0.000001)
		snprintf(t.text, sizeof(t.text), "%.0f µs", seconds * 1e6);
	else
		snprintf(t.text, sizeof(t.text), "%.0f ns", seconds * 1e9);
	return t;
}
