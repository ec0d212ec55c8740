/*
 * The live mappings of one process image as a sorted set of disjoint
 * address intervals, so munmap and mremap can find which mapping(s) they
 * hit, including partial unmaps and unmaps spanning several mappings.
 * A sorted array with room at both ends: the kernel hands out mappings in
 * address order (Linux from the top down, macOS from the bottom up), so a
 * new one usually goes in at an end and costs no move. Live mappings
 * number in the hundreds to thousands, except when small pack windows
 * stay mapped (tens of thousands: cat-file on git.git with 8 KiB windows
 * kept 44,000), where moving the whole array per map took 68% of a
 * report. In the middle, the shorter side moves.
 */
#ifndef GT_INTERVALS_H
#define GT_INTERVALS_H

#include <stddef.h>
#include <stdint.h>

struct gt_interval {
	uint64_t start, end; /* [start, end), page-rounded */
	uint64_t len;	     /* bytes the caller asked for (end - start rounds it up) */
	uint64_t file_off;   /* file offset mapped at start */
	uint32_t kind;	     /* enum gt_map_kind */
	uint32_t path_id;
	uint32_t again; /* the (file, offset, length) was mapped before */
};

struct gt_intervals {
	struct gt_interval *v; /* the n intervals, at buf + lo */
	size_t n;
	struct gt_interval *buf;
	size_t lo, cap;
};

/* Adds iv. The caller first removes what it overlaps (BUG otherwise). */
void gt_intervals_insert(struct gt_intervals *m, const struct gt_interval *iv);

/*
 * Removes [start, end) from every interval it overlaps, splitting an
 * interval when the range falls inside it. Calls cb once per removed piece
 * (piece: the part removed, with len = the asked-for bytes in it and
 * file_off adjusted; orig: the interval before the cut). Returns the
 * number of pieces removed.
 */
size_t gt_intervals_remove(struct gt_intervals *m, uint64_t start, uint64_t end,
			   void (*cb)(void *ctx, const struct gt_interval *piece,
				      const struct gt_interval *orig),
			   void *ctx);

/* The interval containing addr, or NULL. */
const struct gt_interval *gt_intervals_find(const struct gt_intervals *m, uint64_t addr);

void gt_intervals_release(struct gt_intervals *m);

#endif /* GT_INTERVALS_H */
