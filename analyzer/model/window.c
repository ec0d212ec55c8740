/*
 * Pack window inference. See window.h.
 */
#include "window.h"

uint64_t gt_window_infer(const struct gt_window_region *r, size_t n)
{
	uint64_t best = 0, best_maps = 0;
	int nonzero = 0;
	/* Quadratic in distinct regions, which are few (pack size / window). */
	for (size_t i = 0; i < n; i++) {
		if (r[i].offset)
			nonzero = 1;
		uint64_t maps = 0;
		for (size_t j = 0; j < n; j++)
			if (r[j].len == r[i].len)
				maps += r[j].maps;
		if (maps > best_maps || (maps == best_maps && r[i].len > best)) {
			best = r[i].len;
			best_maps = maps;
		}
	}
	if (!nonzero || best < 2)
		return 0;
	uint64_t half = best / 2;
	for (size_t i = 0; i < n; i++)
		if (r[i].offset % half || r[i].len > best)
			return 0;
	return best;
}
