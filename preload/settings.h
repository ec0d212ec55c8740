/* GITTRACE_* environment settings (settings.c). */
#ifndef GT_SETTINGS_H
#define GT_SETTINGS_H

#include "gittrace/format.h"

#include <stddef.h>
#include <stdint.h>

struct gt_settings {
	const char *output;	    /* GITTRACE_OUTPUT, or NULL */
	const char *default_dir;    /* where a trace goes without it: $TMPDIR, or /tmp */
	unsigned stack_depth;	    /* 0: counting mode; at most GT_STACK_DEPTH_MAX */
	size_t buffer_size;	    /* bytes of records per block */
	int zstd_level;		    /* compression level */
	uint64_t flush_interval_ns; /* flush a block at least this often */
	unsigned file_mode;	    /* mode of a new trace file */
};

/* The settings of this process image, loaded when tracing starts (lifecycle.c). */
extern struct gt_settings gt_settings;

/*
 * Reads the GITTRACE_* settings with secure_getenv (ignored in setuid
 * programs). An invalid value gets the default and, if warn is set, one
 * warning line.
 */
void gt_settings_load(struct gt_settings *s, int warn);

/*
 * The settings a descendant reads, as "NAME=value" entries of this
 * process's environment when its settings were loaded (copies): the i-th,
 * for i below GT_SETTINGS_INHERITED, or NULL if that one was not set (or
 * too long to keep). A program given an environment of its own (env -i)
 * gets them back with the run's session (exec_env.c).
 */
#define GT_SETTINGS_INHERITED 4
const char *gt_settings_inherited(int i);

#endif /* GT_SETTINGS_H */
