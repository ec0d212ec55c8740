/*
 * The pack-window LRU model and the advice drawn from it. See
 * window_advice.h.
 */
#include "window_advice.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>
#include <utlist.h>

#include "die.h"

/*
 * git's in_window(): a window serves an offset only with a whole hash
 * after it (the_hash_algo->rawsz; SHA-1's, the common case).
 */
#define HASH_BYTES 20

const char gt_window_advice_assumptions[] =
	"git's pack-window rules (packfile.c) replayed on the recorded pack maps: unmaps right "
	"before a pack map are least-recently-used evictions, other unmaps are git's own and are "
	"replayed. The offsets git read inside its windows are not recorded, so the advice keeps "
	"every window the run mapped until git unmapped it itself (overlapping windows count in "
	"full): it errs high. The lower estimate replays git's LRU taking each read at its "
	"window's start (unless a window mapped then served that), a window's last use as its "
	"last map, and misses reads that hit a window. The window size is kept; windows count as "
	"unused when git evicts; the open-descriptor limit closes files, not windows, and is not "
	"modelled";

struct window_key {
	uint64_t pack, offset, len;
};

struct gt_sim_window {
	struct window_key key;
	int mapped;   /* in the model (its LRU list and mapped set) */
	int evicted;  /* the model's LRU unmapped it last: a request now is a remap */
	int recorded; /* mapped in the trace now (in the recorded set) */
	int kept;     /* counted in kept: mapped in the trace, not unmapped by git itself */
	struct gt_sim_window *prev, *next; /* the LRU list (utlist) */
	UT_hash_handle hh;
};

/* One pack's windows of a set, by offset then length. */
struct gt_sim_pack {
	uint64_t pack; /* key */
	struct gt_sim_window **v;
	size_t n, cap;
	uint64_t longest; /* the longest window ever added: how far back a cover can start */
	UT_hash_handle hh;
};

void gt_window_sim_init(struct gt_window_sim *s, uint64_t limit)
{
	memset(s, 0, sizeof(*s));
	s->limit = limit;
}

static int before(const struct window_key *a, const struct window_key *b)
{
	return a->offset != b->offset ? a->offset < b->offset : a->len < b->len;
}

/* The index of the first window of p not before key. */
static size_t lower_bound(const struct gt_sim_pack *p, const struct window_key *key)
{
	size_t lo = 0, hi = p->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (before(&p->v[mid]->key, key))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void set_add(struct gt_sim_pack **set, struct gt_sim_window *w)
{
	struct gt_sim_pack *p;
	HASH_FIND(hh, *set, &w->key.pack, sizeof(w->key.pack), p);
	if (!p) {
		p = gt_xcalloc(1, sizeof(*p));
		p->pack = w->key.pack;
		HASH_ADD(hh, *set, pack, sizeof(p->pack), p);
	}
	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 8;
		p->v = gt_xrealloc(p->v, p->cap * sizeof(*p->v));
	}
	size_t at = lower_bound(p, &w->key);
	memmove(p->v + at + 1, p->v + at, (p->n - at) * sizeof(*p->v));
	p->v[at] = w;
	p->n++;
	if (w->key.len > p->longest)
		p->longest = w->key.len;
}

static void set_remove(struct gt_sim_pack *set, struct gt_sim_window *w)
{
	struct gt_sim_pack *p;
	HASH_FIND(hh, set, &w->key.pack, sizeof(w->key.pack), p);
	if (!p)
		return;
	size_t at = lower_bound(p, &w->key);
	if (at < p->n && p->v[at] == w) {
		memmove(p->v + at, p->v + at + 1, (p->n - at - 1) * sizeof(*p->v));
		p->n--;
	}
}

/*
 * The window of the set serving offset x of pack (in_window()) that ends
 * last, or NULL. Windows start at multiples of half the window size, so
 * few start between x - longest and x.
 */
static struct gt_sim_window *set_serving(struct gt_sim_pack *set, uint64_t pack, uint64_t x)
{
	struct gt_sim_pack *p;
	HASH_FIND(hh, set, &pack, sizeof(pack), p);
	if (!p)
		return NULL;
	struct window_key after = {pack, x, UINT64_MAX};
	struct gt_sim_window *best = NULL;
	for (size_t i = lower_bound(p, &after); i-- > 0;) {
		const struct window_key *k = &p->v[i]->key;
		if (x - k->offset >= p->longest)
			break;
		if (x + HASH_BYTES <= k->offset + k->len &&
		    (!best || k->offset + k->len > best->key.offset + best->key.len))
			best = p->v[i];
	}
	return best;
}

static void set_release(struct gt_sim_pack **set)
{
	struct gt_sim_pack *p, *tmp;
	HASH_ITER(hh, *set, p, tmp)
	{
		HASH_DEL(*set, p);
		free(p->v);
		free(p);
	}
}

static void unmap_window(struct gt_window_sim *s, struct gt_sim_window *w)
{
	DL_DELETE(s->lru, w);
	set_remove(s->mapped_set, w);
	w->mapped = 0;
	s->mapped -= w->key.len;
}

/* git's unmaps since the last map are done with: the trace no longer has them. */
static void forget_unmapped(struct gt_window_sim *s)
{
	for (size_t i = 0; i < s->nunmapped; i++) {
		set_remove(s->recorded_set, s->unmapped[i]);
		s->unmapped[i]->recorded = 0;
	}
	s->nunmapped = 0;
}

/*
 * The offset git asked for when it mapped window w: w's start, unless a
 * window mapped in the trace then served it (git looks for a window before
 * it evicts, so those unmapped just before count); then git asked for one
 * past what that window serves, in its last bytes.
 */
static uint64_t asked_offset(struct gt_window_sim *s, const struct gt_sim_window *w)
{
	const struct gt_sim_window *r = set_serving(s->recorded_set, w->key.pack, w->key.offset);
	return r ? r->key.offset + r->key.len - HASH_BYTES + 1 : w->key.offset;
}

/* Window (pack, offset, len) as requested before; added if add, else NULL if new. */
static struct gt_sim_window *find(struct gt_window_sim *s, uint64_t pack, uint64_t offset,
				  uint64_t len, int add)
{
	struct window_key key;
	memset(&key, 0, sizeof(key)); /* hashed as bytes */
	key.pack = pack;
	key.offset = offset;
	key.len = len;
	struct gt_sim_window *w;
	HASH_FIND(hh, s->all, &key, sizeof(key), w);
	if (!w && add) {
		w = gt_xcalloc(1, sizeof(*w));
		w->key = key;
		HASH_ADD(hh, s->all, key, sizeof(w->key), w);
	}
	return w;
}

void gt_window_sim_map(struct gt_window_sim *s, uint64_t pack, uint64_t offset, uint64_t len)
{
	s->requests++;
	struct gt_sim_window *w = find(s, pack, offset, len, 1);
	uint64_t x = asked_offset(s, w);
	/* The unmaps just before were git's LRU at its limit: the model runs its own. */
	forget_unmapped(s);
	if (!w->recorded) {
		w->recorded = 1;
		set_add(&s->recorded_set, w);
	}
	if (!w->kept) {
		w->kept = 1;
		s->kept += len;
		if (s->kept > s->peak_kept)
			s->peak_kept = s->kept;
	}
	struct gt_sim_window *serving = set_serving(s->mapped_set, pack, x);
	/*
	 * A window the model has mapped already but that does not serve the
	 * offset asked for (only in a damaged trace): used again, never
	 * mapped twice, which would break the LRU list.
	 */
	if (!serving && w->mapped)
		serving = w;
	if (serving) {
		/* The model has a window for it: used again, the most recent now. */
		DL_DELETE(s->lru, serving);
		DL_APPEND(s->lru, serving);
		return;
	}
	s->remaps += w->evicted;
	/* use_pack(): add the new length, then unmap the least recently used until it fits. */
	s->mapped += len;
	int evicting = 0;
	while (s->mapped > s->limit && s->lru) {
		struct gt_sim_window *victim = s->lru;
		unmap_window(s, victim);
		victim->evicted = 1;
		s->evicted_windows++;
		evicting = 1;
	}
	s->evictions += evicting;
	w->mapped = 1;
	w->evicted = 0;
	DL_APPEND(s->lru, w);
	set_add(&s->mapped_set, w);
	if (s->mapped > s->peak)
		s->peak = s->mapped;
}

void gt_window_sim_unmap(struct gt_window_sim *s, uint64_t pack, uint64_t offset, uint64_t len)
{
	struct gt_sim_window *w = find(s, pack, offset, len, 0);
	if (!w || !w->recorded)
		return;
	if (s->nunmapped == s->unmapped_cap) {
		s->unmapped_cap = s->unmapped_cap ? 2 * s->unmapped_cap : 16;
		s->unmapped = gt_xrealloc(s->unmapped, s->unmapped_cap * sizeof(*s->unmapped));
	}
	s->unmapped[s->nunmapped++] = w;
}

void gt_window_sim_settle(struct gt_window_sim *s)
{
	for (size_t i = 0; i < s->nunmapped; i++) {
		struct gt_sim_window *w = s->unmapped[i];
		/* git closed it: mapping it again later is git's doing, not the limit's. */
		w->evicted = 0;
		if (w->kept) {
			w->kept = 0;
			s->kept -= w->key.len;
		}
		if (w->mapped) {
			unmap_window(s, w);
			s->git_releases++;
		}
	}
	forget_unmapped(s);
}

void gt_window_sim_release(struct gt_window_sim *s)
{
	struct gt_sim_window *w, *tmp;
	HASH_ITER(hh, s->all, w, tmp)
	{
		HASH_DEL(s->all, w);
		free(w);
	}
	set_release(&s->mapped_set);
	set_release(&s->recorded_set);
	free(s->unmapped);
	memset(s, 0, sizeof(*s));
}

void gt_git_size(char *buf, size_t size, uint64_t bytes)
{
	static const char units[] = "gmk";
	for (int i = 0; units[i]; i++) {
		uint64_t unit = 1ull << (10 * (3 - i));
		if (bytes && bytes % unit == 0) {
			snprintf(buf, size, "%llu%c", (unsigned long long)(bytes / unit), units[i]);
			return;
		}
	}
	snprintf(buf, size, "%llu", (unsigned long long)bytes);
}

void gt_window_advise(struct gt_window_advice *a, const struct gt_window_sim *s,
		      uint64_t evictions_recorded, uint64_t window)
{
	static const uint64_t mib = 1ull << 20;
	memset(a, 0, sizeof(*a));
	a->evictions = evictions_recorded;
	a->needed = s->peak_kept;
	a->least = s->peak;
	a->window = window;
	if (window)
		gt_git_size(a->window_value, sizeof(a->window_value), window);
	if (!evictions_recorded)
		return;
	a->raise = 1;
	/* git evicts while the total exceeds the limit: the peak itself fits. */
	uint64_t need = a->needed ? a->needed : 1;
	a->limit = need > UINT64_MAX - mib ? need : (need + mib - 1) / mib * mib;
	gt_git_size(a->limit_value, sizeof(a->limit_value), a->limit);
	snprintf(a->git_config, sizeof(a->git_config), "-c core.packedGitLimit=%s%s%s",
		 a->limit_value, window ? " -c core.packedGitWindowSize=" : "", a->window_value);
	a->many_windows = window && a->limit / window >= GT_WINDOW_ADVICE_MANY;
}

void gt_window_advice_describe(char *buf, size_t size, const struct gt_window_advice *a)
{
	if (!a->raise) {
		snprintf(buf, size, "no change: no least-recently-used window unmap was recorded");
		return;
	}
	snprintf(buf, size,
		 "raise core.packedGitLimit to %s%s%s: every window the run mapped then stays "
		 "mapped (%llu evictions recorded; the windows peak at %llu bytes, and git may "
		 "need as little as %llu); git %s",
		 a->limit_value, a->window ? " with the window at " : "", a->window_value,
		 (unsigned long long)a->evictions, (unsigned long long)a->needed,
		 (unsigned long long)a->least, a->git_config);
	size_t used = strlen(buf);
	if (a->many_windows && used < size)
		snprintf(buf + used, size - used,
			 "; but that is %llu windows of %s at once, which git searches one by one: "
			 "raise core.packedGitWindowSize too, or unset both",
			 (unsigned long long)(a->limit / a->window), a->window_value);
}
