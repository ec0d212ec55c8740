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

/* A gt_record_hook: pass a struct gt_dump as ctx to gt_model_new. */
void gt_dump_record(void *ctx, const struct gt_image *img, const struct gt_block *b,
		    const struct gt_rec *rec, const struct gt_rec_call *call);

/*
 * Writes s (n bytes) escaped for a dump field: bytes outside printable
 * ASCII and the separators space , ; = \ become \xHH, so a value never
 * contains a field or list separator.
 */
void gt_dump_escape(FILE *out, const char *s, size_t n);

#endif /* GT_DUMP_H */
