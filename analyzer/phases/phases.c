/*
 * Attributes each CALL to the innermost trace2 region open at its time
 * (phases.h): the change in the image's counters since its previous CALL
 * goes to that row.
 */
#include "phases.h"

#include <stdlib.h>
#include <string.h>

#include "die.h"

/* By pid, then by first event: an exec'd git's session after its parent's. */
static int by_pid(const void *pa, const void *pb)
{
	const struct gt_trace2_session *a = *(struct gt_trace2_session *const *)pa;
	const struct gt_trace2_session *b = *(struct gt_trace2_session *const *)pb;
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	return a->first_ns < b->first_ns ? -1 : a->first_ns > b->first_ns;
}

void gt_phases_init(struct gt_phases *ph, const char *path)
{
	memset(ph, 0, sizeof(*ph));
	gt_trace2_read(&ph->t2, path);
	/* Sorted by pid, so that each image finds its sessions in log time. */
	ph->by_pid = gt_xcalloc(ph->t2.nsessions + 1, sizeof(*ph->by_pid));
	for (struct gt_trace2_session *s = ph->t2.sessions; s; s = s->hh.next)
		if (s->has_pid)
			ph->by_pid[ph->nby_pid++] = s;
	qsort(ph->by_pid, ph->nby_pid, sizeof(*ph->by_pid), by_pid);
}

/* The image's phase state; one with no session when its pid has none. */
static struct gt_image_phases *image_phases(struct gt_phases *ph, const struct gt_image *img)
{
	struct gt_image_phases *ip;
	HASH_FIND(hh, ph->images, &img->id, sizeof(img->id), ip);
	if (ip)
		return ip;
	ip = gt_xcalloc(1, sizeof(*ip));
	ip->image_id = img->id;
	size_t lo = 0, hi = ph->nby_pid; /* the first session of a pid >= img->pid */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (ph->by_pid[mid]->pid < img->pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	ip->sessions = ph->by_pid + lo;
	while (lo + ip->nsessions < ph->nby_pid && ph->by_pid[lo + ip->nsessions]->pid == img->pid)
		ip->nsessions++;
	HASH_ADD(hh, ph->images, image_id, sizeof(ip->image_id), ip);
	return ip;
}

static struct gt_phase_counts counters(const struct gt_image *img)
{
	struct gt_phase_counts c = {
		img->events, img->heap.allocations,  img->heap.allocated_bytes, img->heap.temporary,
		0,	     gt_image_map_calls(img)};
	for (int f = GT_FN_MALLOC; f <= GT_FN_PVALLOC; f++)
		c.allocator_ns += img->fn_ns[f];
	return c;
}

/*
 * The same instant on the image's monotonic clock (*mono) and on the wall
 * clock trace2 uses (*real); 1 if that is the IMAGE's realtime reading, 0
 * if it is approximate: without one, the image is taken to start when its
 * first session says the process started.
 */
static int clock_join(const struct gt_image_phases *ip, const struct gt_image *img, uint64_t *mono,
		      uint64_t *real)
{
	*mono = img->has_info ? img->start_mono_ns : img->first_ns;
	if (img->has_info && img->start_realtime_ns) {
		*real = img->start_realtime_ns;
		return 1;
	}
	const struct gt_trace2_session *s = ip->sessions[0];
	*real = s->process_start_ns ? s->process_start_ns : s->first_ns;
	return 0;
}

/* The call's time on the wall clock, in the time base of trace2. */
static uint64_t call_realtime(struct gt_image_phases *ip, const struct gt_image *img)
{
	uint64_t mono, real;
	if (!clock_join(ip, img, &mono, &real))
		ip->approximate = 1;
	return real + (img->now_ns > mono ? img->now_ns - mono : 0);
}

static void attribute(struct gt_phases *ph, struct gt_image_phases *ip, const struct gt_image *img)
{
	if (!ip->rows) {
		ip->nrows = ph->t2.nrows;
		ip->rows = gt_xcalloc(ip->nrows, sizeof(*ip->rows));
	}
	uint64_t t = call_realtime(ip, img);
	/*
	 * The latest session that holds t: a git that execs another in the
	 * same process never writes "exit", so its session holds the next one's
	 * calls too.
	 */
	struct gt_trace2_session *in = NULL;
	for (size_t i = 0; i < ip->nsessions; i++)
		if (gt_trace2_holds(ip->sessions[i], t))
			in = ip->sessions[i];
	uint32_t row = GT_TRACE2_OUTSIDE;
	if (in) {
		in->matched = ip->matched = 1;
		row = gt_trace2_row_at(in, t);
	}
	struct gt_phase_counts now = counters(img), *r = &ip->rows[row];
	r->calls += now.calls - ip->last.calls;
	r->allocations += now.allocations - ip->last.allocations;
	r->bytes += now.bytes - ip->last.bytes;
	r->temporary += now.temporary - ip->last.temporary;
	r->allocator_ns += now.allocator_ns - ip->last.allocator_ns;
	r->map_calls += now.map_calls - ip->last.map_calls;
	ip->last = now;
}

void gt_phases_note(struct gt_phases *ph, const struct gt_image *img, const struct gt_record *r)
{
	if (!r->known || r->raw.tag != GT_REC_CALL)
		return;
	/* By id: a retired image's struct may be reused by a later one. */
	if (!ph->noted || ph->noted->image_id != img->id)
		ph->noted = image_phases(ph, img);
	if (ph->noted->nsessions)
		attribute(ph, ph->noted, img);
}

void gt_phases_finish(struct gt_phases *ph)
{
	size_t matched = 0;
	struct gt_trace2_session *s, *tmp;
	HASH_ITER(hh, ph->t2.sessions, s, tmp)
	matched += s->matched;
	if (ph->t2.nsessions && !matched)
		gt_warnf(
			"trace2 file '%s': none of its %zu sessions matches a process of the trace "
			"by pid and time (recorded in another run?): no phases",
			ph->t2.path, ph->t2.nsessions);
}

/* Wall ns the session spent with each row innermost, added to ns[row]. */
static void session_seconds(const struct gt_trace2_session *s, uint64_t *ns)
{
	for (size_t i = 0; i < s->nsegs; i++) {
		uint64_t from = s->segs[i].t_ns,
			 to = i + 1 < s->nsegs ? s->segs[i + 1].t_ns : s->last_ns;
		if (to > from)
			ns[s->segs[i].row] += to - from;
	}
}

size_t gt_phases_of(const struct gt_phases *ph, const struct gt_image *img,
		    struct gt_phase_row **rows, int *approximate)
{
	struct gt_image_phases *ip;
	*rows = NULL;
	HASH_FIND(hh, ph->images, &img->id, sizeof(img->id), ip);
	if (!ip || !ip->matched)
		return 0;
	*approximate = ip->approximate;
	uint64_t *ns = gt_xcalloc(ip->nrows, sizeof(*ns));
	for (size_t i = 0; i < ip->nsessions; i++)
		if (ip->sessions[i]->matched)
			session_seconds(ip->sessions[i], ns);
	double regions = 0;
	for (size_t r = 1; r < ip->nrows; r++)
		regions += (double)ns[r] / 1e9;
	double wall = gt_image_wall_seconds(img);
	*rows = gt_xcalloc(ip->nrows, sizeof(**rows));
	size_t n = 0;
	for (size_t r = 0; r < ip->nrows; r++) {
		const struct gt_phase_counts *c = &ip->rows[r];
		if (r != GT_TRACE2_OUTSIDE && !ns[r] && !c->calls)
			continue;
		struct gt_phase_row *out = &(*rows)[n++];
		out->name = &ph->t2.rows[r];
		out->counts = *c;
		out->seconds = r == GT_TRACE2_OUTSIDE ? (wall > regions ? wall - regions : 0)
						      : (double)ns[r] / 1e9;
	}
	free(ns);
	return n;
}

size_t gt_phases_bands(const struct gt_phases *ph, const struct gt_image *img,
		       struct gt_phase_band **bands)
{
	struct gt_image_phases *ip;
	*bands = NULL;
	HASH_FIND(hh, ph->images, &img->id, sizeof(img->id), ip);
	if (!ip || !ip->matched)
		return 0;
	uint64_t mono, real;
	clock_join(ip, img, &mono, &real);
	size_t n = 0, cap = 0;
	for (size_t i = 0; i < ip->nsessions; i++) {
		const struct gt_trace2_session *s = ip->sessions[i];
		for (size_t k = 0; s->matched && k < s->nsegs; k++) {
			uint64_t from = s->segs[k].t_ns;
			uint64_t to = k + 1 < s->nsegs ? s->segs[k + 1].t_ns : s->last_ns;
			if (s->segs[k].row == GT_TRACE2_OUTSIDE || to <= from || from < real)
				continue;
			if (n == cap) {
				cap = cap ? 2 * cap : 16;
				*bands = gt_xrealloc(*bands, cap * sizeof(**bands));
			}
			(*bands)[n++] =
				(struct gt_phase_band){mono + (from - real), mono + (to - real),
						       &ph->t2.rows[s->segs[k].row]};
		}
	}
	return n;
}

void gt_phases_release(struct gt_phases *ph)
{
	struct gt_image_phases *ip, *tmp;
	HASH_ITER(hh, ph->images, ip, tmp)
	{
		HASH_DEL(ph->images, ip);
		free(ip->rows);
		free(ip);
	}
	free(ph->by_pid);
	gt_trace2_release(&ph->t2);
}
