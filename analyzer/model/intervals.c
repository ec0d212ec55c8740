/*
 * Sorted-array interval set, with room at both ends. See intervals.h.
 */
#include "intervals.h"

#include <stdlib.h>
#include <string.h>

#include "die.h"

/* Index of the first interval whose end is above addr. */
static size_t first_ending_after(const struct gt_intervals *m, uint64_t addr)
{
	size_t lo = 0, hi = m->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->v[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* A buffer twice as large, the intervals in its middle: room at both ends. */
static void grow(struct gt_intervals *m)
{
	size_t cap = m->cap ? 2 * m->cap : 64;
	struct gt_interval *buf = gt_xcalloc(cap, sizeof(*buf));
	size_t lo = (cap - m->n) / 2;
	if (m->n)
		memcpy(buf + lo, m->v, m->n * sizeof(*buf));
	free(m->buf);
	m->buf = buf;
	m->cap = cap;
	m->lo = lo;
	m->v = buf + lo;
}

/* Opens a slot at index i, moving the side of i that is shorter and has room. */
static void open_slot(struct gt_intervals *m, size_t i)
{
	if (m->lo == 0 && m->lo + m->n == m->cap)
		grow(m);
	int room_below = m->lo > 0, room_above = m->lo + m->n < m->cap;
	if (room_below && (i < m->n - i || !room_above)) {
		memmove(m->v - 1, m->v, i * sizeof(*m->v));
		m->lo--;
		m->v--;
	} else {
		memmove(m->v + i + 1, m->v + i, (m->n - i) * sizeof(*m->v));
	}
	m->n++;
}

/* Closes the slot at index i, moving its shorter side. */
static void close_slot(struct gt_intervals *m, size_t i)
{
	if (i < m->n - 1 - i) {
		memmove(m->v + 1, m->v, i * sizeof(*m->v));
		m->lo++;
		m->v++;
	} else {
		memmove(m->v + i, m->v + i + 1, (m->n - i - 1) * sizeof(*m->v));
	}
	m->n--;
}

void gt_intervals_insert(struct gt_intervals *m, const struct gt_interval *iv)
{
	if (iv->end <= iv->start)
		return;
	size_t i = first_ending_after(m, iv->start);
	if (i < m->n && m->v[i].start < iv->end)
		BUG("inserting an interval that overlaps a live one");
	open_slot(m, i);
	m->v[i] = *iv;
}

/* Asked-for bytes of orig that fall in [s, e). */
static uint64_t real_bytes(const struct gt_interval *orig, uint64_t s, uint64_t e)
{
	uint64_t real_end = orig->start + orig->len;
	if (real_end > e)
		real_end = e;
	return real_end > s ? real_end - s : 0;
}

static struct gt_interval cut(const struct gt_interval *orig, uint64_t s, uint64_t e)
{
	struct gt_interval p = *orig;
	p.start = s;
	p.end = e;
	p.file_off = orig->file_off + (s - orig->start);
	p.len = real_bytes(orig, s, e);
	return p;
}

size_t gt_intervals_remove(struct gt_intervals *m, uint64_t start, uint64_t end,
			   void (*cb)(void *ctx, const struct gt_interval *piece,
				      const struct gt_interval *orig),
			   void *ctx)
{
	size_t removed = 0;
	if (end <= start)
		return 0;
	size_t i = first_ending_after(m, start);
	while (i < m->n && m->v[i].start < end) {
		struct gt_interval orig = m->v[i];
		uint64_t s = orig.start > start ? orig.start : start;
		uint64_t e = orig.end < end ? orig.end : end;
		struct gt_interval piece = cut(&orig, s, e);
		int keep_left = orig.start < s, keep_right = e < orig.end;
		if (keep_left && keep_right) {
			m->v[i] = cut(&orig, orig.start, s);
			struct gt_interval right = cut(&orig, e, orig.end);
			gt_intervals_insert(m, &right);
			i += 2;
		} else if (keep_left) {
			m->v[i] = cut(&orig, orig.start, s);
			i++;
		} else if (keep_right) {
			m->v[i] = cut(&orig, e, orig.end);
			i++;
		} else {
			close_slot(m, i); /* the next interval is now at i */
		}
		if (cb)
			cb(ctx, &piece, &orig);
		removed++;
	}
	return removed;
}

const struct gt_interval *gt_intervals_find(const struct gt_intervals *m, uint64_t addr)
{
	size_t i = first_ending_after(m, addr);
	if (i < m->n && m->v[i].start <= addr)
		return &m->v[i];
	return NULL;
}

void gt_intervals_release(struct gt_intervals *m)
{
	free(m->buf);
	memset(m, 0, sizeof(*m));
}
