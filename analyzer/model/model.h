/*
 * The model: every process image of a trace with what the report needs —
 * identity, times, calls per function, time inside them, heap, maps,
 * stacks and modules — built by feeding blocks in file order. One ordered
 * stream per image (format.h) makes per-image accounting in file order
 * exact even though blocks of different images interleave.
 */
#ifndef GT_MODEL_H
#define GT_MODEL_H

#include <stdint.h>
#include <uthash.h>

#include "gittrace/format.h"
#include "heap.h"
#include "maps.h"
#include "reader.h"
#include "records.h"
#include "timeline.h"

struct gt_module {
	uint64_t base, size;
	char *path;
	uint8_t *build_id;
	size_t build_id_len;
};

struct gt_stack {
	uint64_t id; /* key, per image */
	size_t depth;
	uint64_t *ips; /* innermost first */
	UT_hash_handle hh;
};

struct gt_thread {
	struct gt_heap_thread heap; /* heap.serial is the key */
	uint64_t tid;
	struct gt_rec_usage usage; /* its last USAGE reading (format 1.2) */
	int has_usage;
	UT_hash_handle hh;
};

/* Durations of malloc-family calls in powers of two of ns: bucket b holds [2^b, 2^(b+1)). */
#define GT_DURATION_BUCKETS 40

struct gt_image {
	uint64_t id; /* key */
	uint32_t pid;
	int has_info; /* the IMAGE record was seen */
	uint64_t ppid, start_realtime_ns, start_mono_ns, origin, parent_image_id;
	uint64_t pointer_bits, page_size, stack_depth;
	uint64_t clock_overhead_ns; /* taken off every call's duration */
	uint64_t timed_one_in;	    /* sampled functions' timed calls stand for this many */
	uint64_t page_cycle_ns;	    /* a page given back and written again: a root's (format.h) */
	char *exe, *cwd;
	size_t argc, envc;
	char **argv, **env;

	int ended;	       /* an END record was seen (the last one counts) */
	int finished;	       /* live blocks counted as leaked (gt_model_finish, or retired) */
	int retired;	       /* summarized by the retire hook; its details forgotten */
	int queued;	       /* waiting in the model's queue of ended images */
	uint64_t ended_block;  /* the model's block count at its END, or at a later block */
	uint64_t queued_block; /* its ended_block when it joined the ring */
	struct gt_rec_end end;
	uint64_t exec_failures, dropped_calls;
	/* Page faults (minor and major) of its first thread at its first USAGE
	 * reading: its start-up's, for gt_image_heap_refaults. */
	uint64_t start_faults;
	int has_start_faults;
	/* Calls measured implausibly long, and the time cut off them. */
	uint64_t capped_calls, capped_ns;
	int missing_blocks; /* a block was missing by seq, or seq 0 never seen */
	uint32_t next_seq;

	uint64_t now_ns;   /* time of the last CALL */
	int block_start;   /* the next CALL's delta is from the block's base_ns */
	uint64_t first_ns; /* time of the first CALL (0 if none) */
	struct gt_thread *threads, *cur;
	struct gt_module *mods; /* sorted by base, none overlapping */
	size_t nmods, mods_cap;
	struct gt_stack *stacks;

	uint64_t calls[GT_FN_COUNT];
	uint64_t fn_ns[GT_FN_COUNT]; /* summed durations */
	/*
	 * Calls that failed: NULL for bytes asked (not for 0 bytes, where C
	 * allows NULL), an errno from posix_memalign, MAP_FAILED, munmap's -1.
	 */
	uint64_t failed[GT_FN_COUNT];
	/* The malloc family's calls of less than a page by duration: counts and summed ns. */
	uint64_t alloc_durations[GT_DURATION_BUCKETS], alloc_duration_ns[GT_DURATION_BUCKETS];
	uint64_t events; /* CALL records */
	uint64_t unknown_records;
	struct gt_heap heap;
	struct gt_maps maps;
	struct gt_timeline timeline; /* heap and map levels over time */

	size_t order; /* position of first appearance in the file */
	UT_hash_handle hh;
};

struct gt_model;

struct gt_model *gt_model_new(void);

/*
 * Stops keeping each image's timeline (timeline.h, left empty), which
 * only the HTML page draws: noting every call in it took a seventh of the
 * main thread's instructions (callgrind, a `log --raw -n 20000` trace).
 */
void gt_model_no_timelines(struct gt_model *m);

/*
 * Called once for every image, when it is retired: GT_RETIRE_AFTER_BLOCKS
 * blocks after its END or its last block after END, whichever is later
 * (if no failed exec revived it), or at
 * gt_model_finish. The image is finished (leaks counted). After the hook
 * returns, the model forgets the image's stacks, modules, live blocks and
 * mappings, and keeps its counters and timeline (the image stays valid
 * until gt_model_free): memory follows the images running at a time, not
 * every image of the trace. Calls that still arrive for a retired image
 * are counted, but their frees and unmaps find nothing live, and its
 * timeline no longer changes. Without a
 * hook nothing is retired (--folded prints every stack at the end).
 */
typedef void gt_retire_hook(void *ctx, struct gt_image *img);
/* retire NULL: no hook from now on. */
void gt_model_on_retire(struct gt_model *m, gt_retire_hook *retire, void *ctx);

/*
 * How long an ended image stays after its END or its last block since:
 * calls after END (the C library's clean-up, or a block each from earlier
 * tracers) and failed execs come from the same process, right after it.
 */
#define GT_RETIRE_AFTER_BLOCKS 64

/* Applies one block's records. Dies on bad input. */
void gt_model_feed(struct gt_model *m, const struct gt_block *b);

/*
 * gt_model_feed record by record, for a caller that looks at each record as
 * the model takes it (--dump):
 *	gt_model_step_begin(&s, m, b);
 *	while (gt_model_step(&s))
 *		look at s.rec, s.img;
 */
struct gt_model_step {
	struct gt_model *m;
	const struct gt_block *b;
	struct gt_image *img; /* the block's image */
	struct gt_rec_iter it;
	struct gt_record rec; /* the record just applied */
};
void gt_model_step_begin(struct gt_model_step *s, struct gt_model *m, const struct gt_block *b);
/* Decodes and applies the block's next record; 0 after the last (the block is done). */
int gt_model_step(struct gt_model_step *s);

/*
 * The same for records decoded elsewhere (read/decoder.c), in the block's
 * order: begin the block, apply each of its records, end it. s.it and
 * s.rec are not used.
 */
void gt_model_block_begin(struct gt_model_step *s, struct gt_model *m, const struct gt_block *b);
void gt_model_apply(struct gt_model_step *s, const struct gt_record *r);
void gt_model_block_end(struct gt_model_step *s);

/* After the last block: leaks, bounds; torn says the reader stopped early. */
void gt_model_finish(struct gt_model *m, int torn);

/* Images in order of first appearance in the file. */
size_t gt_model_count(const struct gt_model *m);
struct gt_image *gt_model_image(const struct gt_model *m, size_t i);

/* Trace-wide facts. */
int gt_model_complete(const struct gt_model *m); /* not torn, no block missing, all ended */
uint64_t gt_model_events(const struct gt_model *m);
uint64_t gt_model_unknown_records(const struct gt_model *m);
uint64_t gt_model_blocks(const struct gt_model *m);

/* A stack of an image, or NULL. */
const struct gt_stack *gt_image_stack(const struct gt_image *img, uint64_t id);

/* The module containing ip in the image's current module map, or NULL. */
const struct gt_module *gt_image_module(const struct gt_image *img, uint64_t ip);

/*
 * Wall seconds (END minus start; 0 if unknown) and CPU seconds (END's
 * user + system, which the preload measures from the image's start, so an
 * exec'd image does not include the image it replaced; 0 if the image
 * never ended).
 */
double gt_image_wall_seconds(const struct gt_image *img);
double gt_image_cpu_seconds(const struct gt_image *img);
/* The tracer's own time in the image, as the preload estimated it (END). */
double gt_image_tracer_seconds(const struct gt_image *img);
int gt_image_complete(const struct gt_image *img);

/* Seconds inside the malloc family / inside mmap, munmap, mremap. */
double gt_image_allocator_seconds(const struct gt_image *img);
/*
 * Seconds the malloc family's calls of less than a page spent beyond its
 * usual call, summed over the calls slower than that: the usual call is
 * the mean call of the power-of-two duration bucket that holds the
 * q-quantile (0 < q < 1). Larger calls are left out: at a new top of the
 * heap their pages fault in, whatever the allocator.
 */
double gt_image_allocator_excess_seconds(const struct gt_image *img, double q);
double gt_image_mmap_seconds(const struct gt_image *img);

/*
 * Page faults of an image that ended beyond what it needed: its faults at
 * its END, less its start-up's (start_faults), one for each page of the
 * heap's peak without huge blocks (an allocator that kept every page it
 * had faults each once) and of each huge block (heap.h, GT_HUGE_BLOCK:
 * every allocator maps it anew), one for each GT_FILE_FAULT_BYTES of the
 * files it mapped (the kernel maps that much around a read fault of a
 * file: fault_around_bytes), one a map, and one for each page mapped
 * anonymously. What is left, when anything
 * is, is mostly heap pages the allocator gave back to the kernel (glibc
 * trims the heap's top and unmaps its large blocks) and faulted in again:
 * another allocator's saving that no call's time holds. Fewer than
 * GT_REFAULTS_MIN are what the estimate does not see (the tracer's own
 * pages, its stack walk's reads, an allocator's own bookkeeping): 0. 0 for
 * an image that did not end, or has no USAGE reading (no file map) to
 * take start-up's from.
 */
#define GT_FILE_FAULT_BYTES (64u << 10)
#define GT_REFAULTS_MIN	    4096
uint64_t gt_image_heap_refaults(const struct gt_image *img);

/* "root", "fork" or "exec" (enum gt_origin); "unknown" for any other value. */
const char *gt_origin_name(uint64_t origin);

/*
 * Seconds from the image's start to its heap's peak; 0 when either is
 * unknown.
 */
double gt_image_peak_seconds(const struct gt_image *img);

/* Threads the image had: the END record's count, else the threads seen. */
uint64_t gt_image_threads(const struct gt_image *img);

/* 1 and *status when the image ended by exit or _exit with a known status. */
int gt_image_exit_status(const struct gt_image *img, int *status);

/*
 * The signal that killed the process after its tracer wrote its records
 * (END reason signal, since 4.1), else 0.
 */
int gt_image_killed_by(const struct gt_image *img);

/* mmap, mmap64, munmap and mremap calls. */
uint64_t gt_image_map_calls(const struct gt_image *img);

void gt_model_free(struct gt_model *m);

#endif /* GT_MODEL_H */
