/*
 * What the reports print, derived from the model once: per process the
 * times, shares, named sites (merged by their symbolized stack), window
 * facts and verdict; totals and the verdict for the whole tree; and for
 * a hook, each process's symbolized allocating stacks as it is added.
 * Report writers only format this: each stack is symbolized here, once.
 */
#ifndef GT_SUMMARY_H
#define GT_SUMMARY_H

#include <stdint.h>
#include <uthash.h>

#include "model.h"
#include "symbolize.h"
#include "replay_input.h"
#include "verdict.h"

/*
 * What makes a site: each of its frames' function, file and line, from the
 * site frame outwards. The names are the symbolizer's interned strings, so
 * equal frames are equal bytes.
 */
struct gt_site_key {
	const char *function, *file;
	int64_t line;
};
_Static_assert(sizeof(struct gt_site_key) == 2 * sizeof(const char *) + sizeof(int64_t),
	       "padding in a key compared byte by byte");

/*
 * A site's symbolized frames, shared by every process with the same site:
 * thousands of short processes of one program have the same sites.
 */
struct gt_site_frames {
	struct gt_site_key *key; /* as its gt_site's */
	struct gt_frame *frames;
	size_t nframes;
	UT_hash_handle hh;
};

struct gt_site {
	struct gt_site_key *key; /* one per frame */
	size_t key_len;		 /* in bytes */
	unsigned key_hash;	 /* summary.c's key_hash */
	const char *function;	 /* the site frame's function (or module+0xoff, ?) */
	struct gt_frame *frames;
	size_t nframes;
	/* frames[caller] is the traced program's own caller shown beside the
	 * site (gt_program_caller); nframes when there is none */
	size_t caller;
	int shared;   /* key and frames belong to the summary's gt_site_frames */
	size_t index; /* in its process's sites as first sorted (callers.c marks by it) */
	uint64_t allocations, bytes, temporary, leaked_allocations, leaked_bytes;
	uint64_t at_peak_bytes; /* its blocks live at its process's heap peak */
	UT_hash_handle hh;
};

/*
 * A row of the "by caller in the program" table (callers.c): the sites
 * whose function and program's caller are the same, each a distinct stack
 * beneath it, heaviest first. The names are those of its first site.
 */
struct gt_caller_row {
	struct gt_site **sites; /* its heaviest stacks' (gt_callers_cap) */
	size_t nsites;
	size_t stacks; /* all its stacks: nsites before the cap */
	uint64_t allocations, bytes, temporary;
};

/*
 * An allocating stack of a process as folded stacks and the flame graph
 * draw it: the functions of its frames from the innermost one outside the
 * C library's allocator (gt_program_frame) outwards, wrappers kept, the
 * tracer's own frames (GT_FRAME_TRACER) left out.
 */
struct gt_proc_stack {
	const struct gt_stack_counts *counts; /* the image's heap's */
	const char *const *functions;	      /* innermost first; the summary's */
	size_t nfunctions;
};

/* summary.c: a stack's function names, stored once */
struct gt_function_list;
struct gt_config_lookup;
struct gt_config_origins;
struct gt_phases;
struct gt_proc;

/* Sees a process while its stacks are there (gt_summary_on_stacks). */
typedef void gt_proc_stacks_hook(void *ctx, const struct gt_proc *p);

struct gt_proc {
	const struct gt_image *img;
	double wall, cpu, allocator_s, mmap_s;
	double tracer_s; /* the tracer's own share of cpu */
	/*
	 * What time shares are shares of: the program's own CPU time (cpu less
	 * tracer_s) for an image that ended, but no less than the time measured
	 * inside its calls (basis_inside says it took that); else its wall time
	 * so far.
	 */
	double basis;
	int basis_inside;
	uint64_t window;
	double thrash;
	struct gt_window_advice window_advice; /* the core.packedGitLimit to avoid evictions */
	char window_settings[160];	       /* given on the command line (git_settings.h) */
	/* The command the user ran that started the process's tree, shell-quoted
	 * (a pipeline traced whole has a tree per command), and `git` with that
	 * command's repository options (git_settings.h); the tree's root owns
	 * both (root_command, root_git). */
	const char *command, *git;
	char *root_command, *root_git;
	const struct gt_image *root_img; /* that root's image; NULL if unknown */
	/* Where the window settings come from (config_origins.h): NULL unless
	 * looked up (gt_summary_look_up_config), or if git could not tell. */
	const struct gt_config_origins *config;
	/* Facts of the image, derived once for every writer (model.h). */
	const char *origin; /* gt_origin_name */
	double peak_seconds;
	uint64_t threads, map_calls;
	int has_exit_status, exit_status;
	char killed_by[16];	/* the signal that killed it ("SIGPIPE"), "" if none */
	struct gt_site **sites; /* by allocations, descending */
	size_t nsites;
	struct gt_caller_row *callers; /* by allocations, descending */
	size_t ncallers;
	/*
	 * Every stack of the image's heap, in its order, while the summary's
	 * stacks hook sees the process (gt_summary_on_stacks); NULL after:
	 * the counts are the image's heap's, which retiring it forgets.
	 */
	struct gt_proc_stack *stacks;
	size_t nstacks;
	struct gt_verdict verdict;
};

struct gt_totals {
	uint64_t calls[GT_FN_COUNT], fn_ns[GT_FN_COUNT],
		failed[GT_FN_COUNT]; /* model.h's, summed */
	uint64_t allocated_bytes, peak_bytes, temporary, leaked_allocations, leaked_bytes;
	uint64_t allocations, untracked_frees;
	double allocator_s, mmap_s, cpu, tracer_s;
	uint64_t peak_mapped_bytes, remapped_regions;
	struct gt_kind_stats kind[GT_MAP_KIND_COUNT];
};

struct gt_summary {
	const struct gt_model *m;
	const char *path;
	struct gt_symbolizer *sym;
	long pid;	       /* only images of this pid; < 0: all */
	size_t keep_sites;     /* sites kept per process; 0: all */
	struct gt_proc *procs; /* heaviest (CPU, then events) first, after finish */
	size_t n, cap;
	struct gt_totals totals;
	struct gt_verdict verdict; /* for the tree */
	/* gittrace replay's predictions (--replay=FILE), matched to processes
	 * by pid; NULL: none. Must outlive the summary. */
	const struct gt_replay_input *replay;
	/* The command of the heaviest tree (gt_proc_weight; gt_proc.command),
	 * and its `git` (gt_proc.git). */
	const char *command, *git;
	const char *const *stripped;
	size_t nstripped;
	/*
	 * Images that ended by an exec whose program never joined the trace
	 * (gt_summary_untraced_execs): a setuid program, a static one, one
	 * with a sanitizer's runtime, one whose tracer could not start.
	 */
	size_t untraced_execs;
	struct gt_site_frames *site_frames; /* uthash by key */
	gt_proc_stacks_hook *stacks_hook;   /* gt_summary_on_stacks */
	void *stacks_ctx;
	struct gt_function_list *function_lists; /* uthash: gt_proc_stack's functions */
	struct gt_site_key *key;		 /* scratch: the key of a site looked up */
	size_t key_cap;
	const struct gt_phases *phases; /* trace2 phases (phases.h), or NULL */
	/* Look up where window settings come from (config_origins.h). */
	int look_up_config;
	struct gt_config_lookup *configs; /* one per directory and options looked up from */
	size_t nconfigs;
	const struct gt_image *root_img; /* the heaviest tree's root (command, git) */
	/* Window settings a git inside the command gave with -c, the command
	 * not (summary.c, settings_inside): --confirm cannot undo them. NULL: none. */
	const char *settings_inside;
	const struct gt_config_origins *config; /* that of its process with the most pack maps */
};

/*
 * Built image by image, so that the model can forget an image once it is
 * summarized (gt_model_on_retire): init, add every image as it is retired
 * (those of another pid than pid >= 0 are skipped), then finish with the
 * model (order, verdicts, totals). keep_sites bounds the sites kept per
 * process (0: all); replay (NULL: none) adds a replay's predictions to the
 * verdicts.
 */
void gt_summary_init(struct gt_summary *s, const char *path, struct gt_symbolizer *sym, long pid,
		     size_t keep_sites, const struct gt_replay_input *replay);
void gt_summary_add(struct gt_summary *s, const struct gt_image *img);
/*
 * Makes finish ask git where the window settings of processes that mapped
 * pack windows come from (config_origins.h), from the directory each
 * started in, right after the run: once per directory and repository
 * options, for at most GT_CONFIG_LOOKUPS_MAX of them. Call before finish.
 */
#define GT_CONFIG_LOOKUPS_MAX 8
void gt_summary_look_up_config(struct gt_summary *s);
/* Whether gt_summary_add takes img (not of another pid than s's). */
int gt_summary_takes(const struct gt_summary *s, const struct gt_image *img);
void gt_summary_finish(struct gt_summary *s, const struct gt_model *m);

/*
 * Makes gt_summary_add fill each process's stacks (gt_proc.stacks), hand
 * the process to hook(ctx, p), then free them: the counts they point to
 * are the image's heap's, which a retired image forgets. The HTML page's
 * flame graph is built that way, image by image. Call after init.
 */
void gt_summary_on_stacks(struct gt_summary *s, gt_proc_stacks_hook *hook, void *ctx);

void gt_summary_release(struct gt_summary *s);

/*
 * What orders processes heaviest first, and picks the run's heaviest tree:
 * CPU time, or for a process that did not end (no END: its CPU time is
 * unknown, at most its wall time) its wall time so far. A pack-objects
 * killed after 4 s of work ranked below forks of 0 calls by its CPU time 0.
 */
double gt_proc_weight(const struct gt_proc *p);

/* qsort orders of struct gt_site pointers, largest first, ties by their frames' names. */
int gt_site_by_allocations(const void *a, const void *b);
int gt_site_by_bytes(const void *a, const void *b);
int gt_site_by_temporary(const void *a, const void *b);
int gt_site_by_peak(const void *a, const void *b);

#endif /* GT_SUMMARY_H */
