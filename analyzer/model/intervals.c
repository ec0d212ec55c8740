/*
 * Sorted-array interval set. See intervals.h.
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

void gt_intervals_insert(struct gt_intervals *m, const struct gt_interval *iv)
{
	if (iv->end <= iv->start)
		return;
	size_t i = first_ending_after(m, iv->start);
	if (i < m->n && m->v[i].start < iv->end)
		BUG("inserting an interval that overlaps a live one");
	if (m->n == m->cap) {
		m->cap = m->cap ? 2 * m->cap : 64;
		m->v = gt_xrealloc(m->v, m->cap * sizeof(*m->v));
	}
	memmove(m->v + i + 1, m->v + i, (m->n - i) * sizeof(*m->v));
	m->v[i] = *iv;
	m->n++;
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
			memmove(m->v + i, m->v + i + 1, (m->n - i - 1) * sizeof(*m->v));
			m->n--;
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
	free(m->v);
	m->v = NULL;
	m->n = m->cap = 0;
}
