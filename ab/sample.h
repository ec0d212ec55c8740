/*
 * What one run of the command measured, and the names of those measures.
 * Shared by the runner, the statistics and both outputs so that a new
 * metric is added in one place.
 */
#ifndef GT_AB_SAMPLE_H
#define GT_AB_SAMPLE_H

enum gt_ab_metric {
	GT_AB_WALL,   /* seconds, CLOCK_MONOTONIC around fork .. wait4 */
	GT_AB_USER,   /* seconds of user CPU (wait4's rusage) */
	GT_AB_SYS,    /* seconds of system CPU */
	GT_AB_MAXRSS, /* KiB, largest resident set of the command or a child */
	GT_AB_MINFLT, /* minor page faults */
	GT_AB_MAJFLT, /* major page faults */
	GT_AB_METRICS
};

/* JSON keys of the metrics ("wall_s", "user_s", "sys_s", "maxrss_kib",
 * "minflt", "majflt"), indexed by enum gt_ab_metric. */
extern const char *const gt_ab_metric_keys[GT_AB_METRICS];

struct gt_ab_sample {
	double m[GT_AB_METRICS];
	int status; /* wait status as wait4 returned it */
};

#endif /* GT_AB_SAMPLE_H */
