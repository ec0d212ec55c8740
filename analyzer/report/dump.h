/*
 * --dump: every record of the trace, one per line, in the stable text form
 * documented in docs/report.md, for tests and for grep/awk.
 */
#ifndef GT_DUMP_H
#define GT_DUMP_H

#include <stdio.h>

#include "model.h"
#include "symbolize.h"

struct gt_dump {
	FILE *out;
	struct gt_symbolizer *sym;
};

/*
 * Feeds one block to the model and prints each of its records as the model
 * takes it (a CALL with its thread and time, a STACK with its frames).
 */
void gt_dump_block(const struct gt_dump *d, struct gt_model *m, const struct gt_block *b);

/*
 * Writes s (n bytes) escaped for a dump field: bytes outside printable
 * ASCII and the separators space , ; = \ become \xHH, so a value never
 * contains a field or list separator.
 */
void gt_dump_escape(FILE *out, const char *s, size_t n);

#endif /* GT_DUMP_H */
