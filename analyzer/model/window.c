/*
 * Pack window inference. See window.h.
 */
#include "window.h"

#include <stdlib.h>

static int by_len(const void *pa, const void *pb)
{
	const struct gt_window_region *a = pa, *b = pb;
	return (a->len > b->len) - (a->len < b->len);
}

uint64_t gt_window_infer(struct gt_window_region *r, size_t n)
{
	uint64_t best = 0, best_maps = 0;
	int nonzero = 0;
	/*
	 * The maps of each length, summed over the runs of a sort: regions
	 * are many exactly when windows are small (a 5 GiB pack in 4 KiB
	 * windows has millions), where comparing each with each took hours.
	 */
	if (n)
		qsort(r, n, sizeof(*r), by_len);
	for (size_t i = 0; i < n;) {
		uint64_t len = r[i].len, maps = 0;
		for (; i < n && r[i].len == len; i++) {
			maps += r[i].maps;
			nonzero |= r[i].offset != 0;
		}
		if (maps >= best_maps) { /* lengths ascend: a tie goes to the longer */
			best = len;
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
