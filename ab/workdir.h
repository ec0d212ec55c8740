/*
 * The scratch directory of a comparison, and the fresh copy of the
 * template repository that a command which writes runs on. Copying and
 * removing happen outside the timed region.
 */
#ifndef GT_AB_WORKDIR_H
#define GT_AB_WORKDIR_H

/*
 * Creates a new private directory "gittrace-ab.XXXXXX" under parent (NULL:
 * $TMPDIR, else /tmp) and returns its malloc'd path. Dies on failure.
 */
char *gt_ab_workdir_create(const char *parent);

/*
 * Makes `to` an exact copy of the directory `from` with `cp -a` (modes,
 * times, symlinks and hard links inside the tree kept), replacing whatever
 * was at `to`. Dies when the copy fails.
 */
void gt_ab_tree_copy(const char *from, const char *to);

/*
 * Removes path and everything below it, without following symlinks; a
 * missing path is fine. Dies when something cannot be removed, unless
 * quiet, which only warns (for clean-up on the way out).
 */
void gt_ab_tree_remove(const char *path, int quiet);

#endif /* GT_AB_WORKDIR_H */
