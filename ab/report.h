/*
 * The two outputs of a comparison: text for people (report_text.c) and
 * JSON for scripts (report_json.c, schema in docs/ab.md). Both write to
 * out and return nothing: a write error shows when out is closed.
 */
#ifndef GT_AB_REPORT_H
#define GT_AB_REPORT_H

#include <stdio.h>

#include "method.h"
#include "options.h"
#include "summary.h"

void gt_ab_report_text(FILE *out, const struct gt_ab_options *o, const struct gt_ab_result *res,
		       const struct gt_ab_variant_summary *s);

void gt_ab_report_json(FILE *out, const struct gt_ab_options *o, const struct gt_ab_result *res,
		       const struct gt_ab_variant_summary *s);

/* The one-line conclusion of variant v (v >= 1) into buf, as
 * gt_ab_verdict_format writes it, for wall time. */
char *gt_ab_conclusion(char *buf, size_t size, const struct gt_ab_options *o,
		       const struct gt_ab_variant_summary *s, size_t v);

#endif /* GT_AB_REPORT_H */
