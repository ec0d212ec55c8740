/*
 * Window advice: git's pack-window LRU (packfile.c: use_pack(),
 * unuse_one_window(), scan_windows()) replayed on the pack windows a
 * process mapped, to find the smallest core.packedGitLimit at which those
 * windows need no eviction. Pure: fed map by map, unit-tested on synthetic
 * sequences (tests/unit/test_window_advice.c). docs/report.md, "Window
 * advice", says the same for users.
 *
 * git's rules, and what the model takes from the trace:
 * - use_pack() maps a window of core.packedGitWindowSize bytes (less at
 *   the pack's end) at a multiple of half that size, adds its length to
 *   the pack bytes mapped and, while that total exceeds
 *   core.packedGitLimit, unmaps the least-recently-used window not in use,
 *   of any pack. So a run of pack unmaps right before a pack map is that
 *   eviction (maps.c reads the limit's bounds from the same runs).
 * - Each recorded pack map is a request for that window (pack, offset,
 *   length); a map of a window mapped before is a request again. Unmaps
 *   not followed by a pack map are git's own (a pack closed), and the
 *   model unmaps those windows too.
 *
 * Two peaks without a limit, since the offsets git read inside its windows
 * are not recorded (only the window: the offset rounded down to half the
 * window size):
 * - peak_kept keeps every window the trace mapped until git itself
 *   unmapped it: overlapping windows count in full, as in git's total. The
 *   advice is this peak, which errs high rather than low: where windows
 *   overlap, git may need about half of it (tests/git/window_advice.sh
 *   reruns git at the advice and sees no eviction).
 * - peak runs git's LRU: a request is served by any window the model has
 *   mapped that serves its offset, as in use_pack(), else the recorded
 *   window is mapped. The offset is taken as the window's start, unless a
 *   window mapped in the trace at that moment served the start
 *   (in_window(): a whole hash after it), when git must have read one of
 *   that window's last bytes. Reads that hit a mapped window are not
 *   recorded, so where the model serves a request from a window other than
 *   the recorded one, later reads of the recorded window's other half are
 *   unseen: this peak is a lower estimate (on the tiny-window example, 91
 *   windows where git rerun without evictions mapped 96). Without a limit
 *   this model never evicts, and at any limit below its peak it runs the
 *   same up to the map that passes the limit, which evicts.
 *
 * Assumptions besides:
 * - A window's last use is its last map: git also counts the reads that
 *   hit a mapped window, which are not recorded. This changes which window
 *   a limit below the peak evicts, not the peaks.
 * - Every window is unused when git evicts: a window held by a caller's
 *   cursor is not visible in the maps.
 * - The window size in effect is kept: windows are not re-cut.
 * - The open-descriptor limit (git's pack_max_fds) closes pack files, not
 *   windows: it maps nothing and is not modelled.
 * - git's limit is per process; so is the model.
 */
#ifndef GT_WINDOW_ADVICE_H
#define GT_WINDOW_ADVICE_H

#include <stddef.h>
#include <stdint.h>

/* One sentence for reports: the assumptions above, in short. */
extern const char gt_window_advice_assumptions[];

struct gt_sim_window;
struct gt_sim_pack;

struct gt_window_sim {
	uint64_t limit;		   /* the candidate core.packedGitLimit; UINT64_MAX: no limit */
	uint64_t mapped, peak;	   /* pack bytes mapped in the model, and their peak */
	uint64_t kept, peak_kept;  /* the trace's windows kept until git unmaps them */
	uint64_t requests;	   /* pack maps fed */
	uint64_t evictions;	   /* requests that unmapped windows first (as maps.h counts) */
	uint64_t evicted_windows;  /* windows the model's LRU unmapped */
	uint64_t remaps;	   /* requests of a window the model's LRU had unmapped */
	uint64_t git_releases;	   /* windows git unmapped itself (not an eviction) */
	struct gt_sim_window *all; /* uthash by (pack, offset, len): every window requested */
	struct gt_sim_window *lru; /* utlist: the mapped ones, least recently used first */
	struct gt_sim_pack *mapped_set;	  /* the model's mapped windows, per pack by offset */
	struct gt_sim_pack *recorded_set; /* the trace's mapped windows, the same way */
	/* Windows git unmapped since the last map call: evictions if a pack map follows. */
	struct gt_sim_window **unmapped;
	size_t nunmapped, unmapped_cap;
};

/* A model with core.packedGitLimit = limit (UINT64_MAX: never evict). */
void gt_window_sim_init(struct gt_window_sim *s, uint64_t limit);

/* git mapped window (pack, offset, len): the model maps it, or uses it if mapped. */
void gt_window_sim_map(struct gt_window_sim *s, uint64_t pack, uint64_t offset, uint64_t len);

/* git unmapped all of window (pack, offset, len). */
void gt_window_sim_unmap(struct gt_window_sim *s, uint64_t pack, uint64_t offset, uint64_t len);

/*
 * Any other map call (or the end of the process): git's unmaps since the
 * last pack map were its own, not an eviction, so the model unmaps them.
 */
void gt_window_sim_settle(struct gt_window_sim *s);

void gt_window_sim_release(struct gt_window_sim *s);

/*
 * Windows below the default size mapped at once from which git's search of
 * them is worth measuring: with 44,000 windows of 8 KiB, cat-file
 * --batch-check on git.git ran 14× slower than with defaults, almost all
 * of it in git's own code (BENCHMARKS.md); `cat-file --batch-all-objects
 * --batch-check` 1.15× slower with about 150 windows of 4 MiB and 1.62×
 * with about 620 of 1 MiB (gittrace ab, 5 rounds each), where the trace
 * saw no map again and the kernel's time bounded the saving at 4%. The
 * verdict asks it of the windows the run mapped.
 */
#define GT_WINDOW_SEARCH_MANY 64
/*
 * Windows of a limit the advice would give from which it says to raise the
 * window size too (at 13,000 windows of 64 KiB, 842m, cat-file ran 10×
 * slower than at git's defaults); below, it keeps the size the user set.
 */
#define GT_WINDOW_ADVICE_MANY 1024

struct gt_window_advice {
	int raise;	       /* 0: "no change" (no eviction was recorded) */
	uint64_t evictions;    /* recorded (maps.h), what the advice answers */
	uint64_t needed;       /* peak_kept: every window the run mapped, kept */
	uint64_t least;	       /* peak: the LRU model's lower estimate */
	uint64_t limit;	       /* advised core.packedGitLimit in bytes; 0 with no change */
	uint64_t window;       /* the window size in effect (maps.h inference); 0 unknown */
	char limit_value[24];  /* limit in git's units: "3m", "2g" */
	char window_value[24]; /* window in git's units ("64k"); "" unknown */
	char git_config[128];  /* "-c core.packedGitLimit=3m -c core.packedGitWindowSize=64k" */
	/*
	 * The limit holds GT_WINDOW_ADVICE_MANY windows or more of the size in
	 * effect: git would search them all, one by one, and a run at the
	 * advice was 10 times slower than at git's defaults (cat-file with
	 * 64 KiB windows, 842m). Raise the window size too, or drop both.
	 */
	int many_windows;
};

/*
 * The advice for a process: with evictions recorded, peak_kept (s fed with
 * limit UINT64_MAX, settled) rounded up to whole MiB (git parses k, m and
 * g suffixes), at the window size in effect (window, 0 when the maps do
 * not show it: the -c then leaves it alone). Without evictions: no change.
 */
void gt_window_advise(struct gt_window_advice *a, const struct gt_window_sim *s,
		      uint64_t evictions_recorded, uint64_t window);

/* The advice in one sentence, for the text and HTML reports. */
void gt_window_advice_describe(char *buf, size_t size, const struct gt_window_advice *a);

/* bytes in git's config units: "2g", "3m", "64k" when a whole unit, else the number. */
void gt_git_size(char *buf, size_t size, uint64_t bytes);

#endif /* GT_WINDOW_ADVICE_H */
