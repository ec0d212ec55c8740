/*
 * How the reports name a process: by its program and what it was asked to
 * do. git's global options come before its subcommand (`git -C DIR log`,
 * `git --shallow-file FILE index-pack`, as git runs its children), so the
 * first words of an argv often hide which git command a process was.
 */
#ifndef GT_COMMAND_LABEL_H
#define GT_COMMAND_LABEL_H

#include <stddef.h>

#include "model.h"

/*
 * The program's name (its path's last component) and the word that says
 * what it did: git's subcommand, else argv[1] ("" if none).
 */
void gt_program_words(const struct gt_image *img, const char **name, const char **word);

/*
 * The program's name and its arguments, for git from the subcommand on;
 * control characters as '?' (an argv must not forge a report's line or
 * drive the terminal). Fills buf (cut to size) and returns it.
 */
const char *gt_command_label(const struct gt_image *img, char *buf, size_t size);

/* Whether the label leaves words of the argv out, or shortens argv[0]. */
int gt_command_label_shortens(const struct gt_image *img);

/* The whole argv (the exe if none), control characters as '?'. Both fill
 * buf, cut with "…" at a character's start when it is too small. */
const char *gt_command_line(const struct gt_image *img, char *buf, size_t size);

#endif /* GT_COMMAND_LABEL_H */
