/*
 * From a trace to op streams (ops.h): one pass over the trace, one op file
 * per process image with malloc-family calls, written to a directory the
 * caller owns. Reading uses the analyzer's reader and record decoder, so a
 * bad trace ends the program the way gittrace-report's does (one line,
 * exit 1) and a trace cut short is read up to its last whole block with
 * the reader's one warning (and a missing block with the model's).
 */
#ifndef GT_REPLAY_EXTRACT_H
#define GT_REPLAY_EXTRACT_H

#include <stddef.h>
#include <stdint.h>

#include "ops.h"

/* Where an image's CPU time comes from. */
enum gt_replay_cpu_source {
	GT_REPLAY_CPU_NONE = 0,	 /* no END and no USAGE: unknown */
	GT_REPLAY_CPU_END = 1,	 /* END: as gittrace-report's verdict (extract.c) */
	GT_REPLAY_CPU_USAGE = 2, /* no END: the threads' last USAGE, user + system */
};

struct gt_replay_image {
	uint64_t id;
	uint32_t pid;
	char **argv;
	size_t argc;
	char *ops_path;		   /* its op stream */
	struct gt_replay_header h; /* what the op stream holds */
	uint64_t recorded_calls;   /* malloc-family CALLs in the trace */
	/* Calls that cannot be replayed as recorded: frees of blocks never
	 * seen allocated (allocated before tracing began, in a fork's parent,
	 * or in a missing block) are left out; reallocs of such blocks are
	 * replayed as realloc(NULL, n); CALLs of functions this reader does
	 * not know are left out. */
	uint64_t untracked_frees, untracked_reallocs, unknown_calls;
	double cpu_seconds; /* the program's CPU time; see cpu_source */
	enum gt_replay_cpu_source cpu_source;
};

struct gt_replay_images {
	struct gt_replay_image *v; /* in order of first block */
	size_t n;
	int torn; /* the trace ended inside a block */
};

/*
 * Reads the trace at path and writes an op stream into dir for each image
 * (of pid, when pid > 0) that made malloc-family calls; images without
 * any are left out. Dies on a bad trace.
 */
void gt_replay_extract(const char *path, const char *dir, long pid, struct gt_replay_images *out);

void gt_replay_images_release(struct gt_replay_images *imgs);

#endif /* GT_REPLAY_EXTRACT_H */
