/*
 * Infers git's pack window size (core.packedGitWindowSize in effect) from
 * the pack regions a process mapped. Pure function, unit-tested.
 */
#ifndef GT_WINDOW_H
#define GT_WINDOW_H

#include <stddef.h>
#include <stdint.h>

struct gt_window_region {
	uint64_t offset, len, maps; /* a distinct (pack, offset, len) and how often it was mapped */
};

/*
 * The most common length of pack maps (weighted by maps; ties go to the
 * longer length), if some region starts at a nonzero offset and every
 * region's offset is a multiple of half that length — git starts windows
 * at multiples of window/2 and caps them at the pack's end. Returns 0 when
 * the regions do not show a window (no pack maps, every pack mapped whole
 * from offset 0, or offsets that do not fit). Sorts r by length.
 */
uint64_t gt_window_infer(struct gt_window_region *r, size_t n);

#endif /* GT_WINDOW_H */
