/*
 * The verdict: a prediction of what each remedy the trace points at would
 * save on this machine, with an interval, and the class that follows from
 * it; the evidence that led there and suggestions a user can act on. Pure
 * computation over a small input struct, so it is unit-tested without a
 * trace or a clock (docs/report.md, "Verdict").
 *
 * Predicted savings, as shares of the program's own CPU time:
 *   default windows: the kernel time (page faults and the map calls) while
 *     windows of regions mapped before were mapped, measured on this
 *     machine by the preload (format 1.2 USAGE), and at least the time
 *     inside the calls that lowered limits add (maps of regions mapped
 *     before, unmaps that evicted windows). Low end: those calls alone;
 *     high end: all kernel time of the periods with such a window mapped.
 *     Kernel time below GT_KERNEL_TIME_RESOLVED_S counts in the high end
 *     only, from twice that in the point estimate too, and in proportion
 *     between.
 *   another allocator: the time glibc's slower calls took beyond its usual
 *     (median) call: what an allocator whose every call is usual would save.
 *     Low end: beyond its 90th-percentile call; high end: all the time
 *     inside the malloc family. Cache and page-fault effects are not seen.
 *   With GT_WINDOW_SEARCH_MANY windows or more below the default size
 *     mapped at once, git's own search of them (use_pack walks a pack's
 *     list of windows on each read its current one does not serve) costs
 *     user time the trace does not see: the high end is then all the
 *     program's time outside the malloc family, and the headline says to
 *     measure.
 * Class: the remedy with the larger predicted saving when that is at
 * least GT_GAIN_CLASS_MIN; else neither. `gittrace --confirm` measures.
 * A replay (`gittrace replay`, opt-in) is more evidence: its predicted
 * change per allocator is shown beside the estimate above, and where the
 * two disagree the evidence says so; the class and headline stay the
 * estimate's.
 */
#ifndef GT_VERDICT_H
#define GT_VERDICT_H

#include <stddef.h>
#include <stdint.h>

#include "window_advice.h"

/*
 * Loose objects read from which packing them is worth suggesting (git's
 * gc.auto packs from 6,700). A few are cheap to read, and a pack can make
 * them dearer: git diff of two 200 MB blobs took 17% longer after git gc,
 * which made the second a delta of the first.
 */
#define GT_LOOSE_MANY 1000
/*
 * A heap refault's price in page cycles (a page given back and written
 * again, format.h IMAGE page_cycle_ns): the kernel's cycle, and about as
 * much again in the program, which refills the zeroed page. On git.git,
 * mimalloc in place of glibc saved blame of sequencer.c 0.18–0.24 s for
 * 77,000 fewer faults (2.3–3.1 µs each), and log -p -n 2000 over 24,000
 * loose objects 0.05–0.19 s for 65,000 (0.8–2.9 µs each), where a cycle
 * took 1.3–1.4 µs and the system time per fault was 4 and 6 µs.
 */
#define GT_REFAULT_CYCLES 2
/* A predicted saving this large makes the class. */
#define GT_GAIN_CLASS_MIN 0.10
/* Below this, a remedy is not worth a suggestion of its own in the headline. */
#define GT_GAIN_NOTABLE_MIN 0.05
/*
 * Kernel time below this is a count of ticks, not a measure: getrusage
 * splits a thread's time into user and system by the ticks that found it
 * in each (4 ms at HZ=250, 10 ms at 100). A short run's windows read 0 to
 * 4 ms of it, 0 to 25% of a 16 ms run: the same command was window-bound
 * in 7 traces of 12 and neither in 5, where defaults saved 7%. Below it,
 * the prediction is the calls' own time, which the clock measures, and
 * the kernel time counts in the high end only. Above it, a step to all of
 * the reading flipped a class too: `git log --raw -2000` with a 1 MiB
 * limit and 32 KiB windows read 4-5% in 4 traces of 8 and 11-13% in the
 * others, where defaults saved 9%; so the reading's weight grows from 0
 * here to 1 at twice this.
 */
#define GT_KERNEL_TIME_RESOLVED_S 0.02
/*
 * The CPUs count as shared with other work (cpus_shared) from this many
 * involuntary switches a second of the program's CPU time, and at least
 * GT_SHARED_CPU_SWITCHES_MIN of them. Then times inside calls hold waits
 * for a CPU, and calls after a switch run with cold caches: the
 * allocator's prediction rose with the machine's load. On git.git, 2
 * CPUs: `git log --raw -n 30000` 22–38 a second on a quiet machine (load
 * 0.7; pack-objects, two threads, 33), 170–373 beside other jobs (load 1.8
 * to 2.7), 280 pinned to one CPU beside a busy loop.
 */
#define GT_SHARED_CPU_SWITCHES_PER_S 100
#define GT_SHARED_CPU_SWITCHES_MIN   10

enum gt_verdict_class {
	GT_VERDICT_NEITHER = 0,
	GT_VERDICT_ALLOCATOR = 1,
	GT_VERDICT_WINDOW = 2,
};

extern const char *const gt_verdict_class_names[3]; /* "neither", … */

/*
 * One allocator of a replay (gittrace-report --replay=FILE, docs/replay.md):
 * the replay time it adds to the system allocator's (negative: saves),
 * summed over the images a verdict covers, and that difference's 95%
 * interval (from the ratio's; NaN with one round).
 */
struct gt_config_origins;

struct gt_replay_delta {
	const char *allocator; /* mimalloc, jemalloc or a path */
	double seconds, low, high;
};

/* A replayed allocator's predicted change of the run, as shares of its time. */
struct gt_replay_change {
	const char *allocator; /* the input's string */
	double change, low, high;
};

struct gt_verdict_input {
	double cpu_seconds;    /* the program's own CPU time (tracer's removed);
				  0: unknown (no END), wall_seconds is used instead */
	double tracer_seconds; /* the tracer's own time, left out of cpu_seconds */
	/*
	 * Processes whose CPU time less the tracer's estimate fell below the
	 * time measured inside their calls, which their share of cpu_seconds
	 * is then (summary.c, set_facts).
	 */
	unsigned inside_floors;
	/* Processes that did not end (no END): wall time stands for their CPU
	 * time, and their kernel time is unknown. */
	unsigned unended;
	double system_seconds; /* kernel CPU time of the processes that ended */
	uint64_t capped_calls; /* calls measured implausibly long (model.c) */
	double capped_seconds; /* the time cut off them */
	/* Times the kernel gave a CPU of the processes that ended to other
	 * work (END involuntary_switches, format 4.2; 0 in older traces). */
	uint64_t involuntary_switches;
	double wall_seconds;
	double allocator_seconds, mmap_seconds;
	uint64_t allocations, temporary;
	uint64_t map_calls;		   /* mmap + munmap + mremap calls */
	uint64_t pack_mmaps, pack_munmaps; /* maps/unmaps of pack windows */
	uint64_t pack_regions;		   /* distinct pack (file, offset, length) */
	double thrash;			   /* pack maps / pack regions (maps.h) */
	uint64_t loose_mmaps;
	/* The run's git subcommand that packs loose objects itself; NULL: none. */
	const char *packer;
	uint64_t window;	    /* inferred window, 0 unknown */
	uint64_t peak_pack_windows; /* mapped at once, at least: peak pack bytes / window */
	uint64_t evictions;	    /* LRU unmaps of pack windows */
	uint64_t limit_at_least, limit_below; /* limit_below UINT64_MAX: none */
	/* The window advice (window_advice.h) when it advises a limit; NULL: none. */
	const struct gt_window_advice *window_advice;
	/* The window settings the command gave git (git_settings.h): "-c
	 * core.packedGitLimit=1m ..."; NULL or "": none, they come from config. */
	const char *window_settings;
	/* What lowered limits cost (maps.h, struct gt_window_cost). */
	int has_window_cost;		 /* USAGE readings were taken (format 1.2) */
	double again_calls_seconds;	 /* maps of regions mapped before, evicting unmaps */
	double again_faults;		 /* page faults while they were mapped (shared) */
	double again_system_seconds;	 /* kernel time while they were mapped (shared) */
	double again_any_system_seconds; /* kernel time of periods with one mapped */
	/*
	 * Allocator time beyond its usual call (the median's), and beyond its
	 * slow call (the 90th percentile's): model.h.
	 */
	double allocator_excess_usual, allocator_excess_slow;
	/*
	 * Page faults beyond what the processes needed (model.h,
	 * gt_image_heap_refaults), and their kernel time at the run's time a
	 * fault (system time / faults: an upper bound, as system time holds
	 * every system call too: git grep's is reading files, 32 µs a fault):
	 * the high end. No call's time holds them. refault_point_seconds, the
	 * prediction's: GT_REFAULT_CYCLES page cycles a refault, measured at
	 * the run's start (page_cycle_seconds), but no more than the system
	 * time a fault; in a trace without that measurement (before format
	 * 4.3), the system time of the processes whose refaults are at least
	 * half of their faults, where it is mostly theirs.
	 */
	uint64_t heap_refaults;
	double refault_seconds, refault_point_seconds;
	double page_cycle_seconds; /* 0: not measured */
	const char *const *env;	   /* allocator-relevant NAME=value */
	size_t envc;
	const char *command; /* the traced command, shell-quoted; NULL unknown */
	const char *git;     /* `git` with its repository options (-C DIR ...); NULL: "git" */
	/* Where git's window settings come from (config_origins.h); NULL: not looked up. */
	const struct gt_config_origins *config;
	/* The git that reaches that repository for `git config --local`, when
	 * the process asked is not the command (config_origins.h); NULL: git. */
	const char *config_git;
	const char *const *top_sites; /* function names, most churning first */
	size_t ntop_sites;
	/* The replay's evidence, if one ran: nreplay allocators (0: none). */
	const struct gt_replay_delta *replay;
	size_t nreplay;
};

/* A predicted saving of a remedy, as shares of the program's time. */
struct gt_prediction {
	int applies; /* the trace points at this remedy */
	double gain, low, high;
};

struct gt_verdict {
	enum gt_verdict_class cls;
	struct gt_prediction window, allocator; /* git's default windows; another allocator */
	double allocator_share, mmap_share;	/* of CPU (or wall) time, 0..1 */
	/*
	 * (mmap time + system time) share, at most 1: no window setting wins
	 * more; but with window_search, window.high (the search is not seen);
	 * 0 when no pack window was mapped; NaN (unknown) when a process did
	 * not end: its kernel time is unknown.
	 */
	double window_bound;
	int window_search;  /* many small windows at once: git's search of them is unseen */
	int cpus_shared;    /* the kernel gave the CPU to other work often (verdict.c) */
	int shares_of_wall; /* 1: no CPU time known, shares of wall */
	char **evidence, **suggestions; /* owned strings */
	size_t nevidence, nsuggestions;
	/* The replay's predicted changes (input.replay over the same basis):
	 * owned array, names borrowed from the input's replay. */
	struct gt_replay_change *replay;
	size_t nreplay;
	char *headline; /* the one thing to do, one line */
};

void gt_verdict_compute(struct gt_verdict *v, const struct gt_verdict_input *in);
/*
 * Sets in's refault_seconds and refault_point_seconds from its
 * heap_refaults, system_seconds and page_cycle_seconds, and the process's
 * page faults (see struct gt_verdict_input).
 */
void gt_verdict_price_refaults(struct gt_verdict_input *in, uint64_t faults);

void gt_verdict_release(struct gt_verdict *v);

#endif /* GT_VERDICT_H */
