/*
 * gittrace-ab: runs a command under several variants (allocators, git
 * settings) with the Git for Windows benchmark method and says, with a
 * confidence interval, which is faster. See docs/ab.md.
 */
#include "die.h"
#include "method.h"
#include "options.h"
#include "progress.h"
#include "report.h"
#include "summary.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	struct gt_ab_options o;
	gt_ab_options_parse(&o, argc, argv);
	gt_ab_progress_enable(o.progress);

	struct gt_ab_result res;
	gt_ab_method_run(&o, &res, gt_ab_precise);
	struct gt_ab_variant_summary *s = gt_ab_summarize(&o, &res);
	if (o.json)
		gt_ab_report_json(stdout, &o, &res, s);
	else
		gt_ab_report_text(stdout, &o, &res, s);
	if (fflush(stdout) || ferror(stdout))
		gt_ab_die_errno("cannot write the result");

	int code = res.exit_code;
	gt_ab_summaries_free(s, o.nvariants);
	gt_ab_result_release(&res);
	gt_ab_options_release(&o);
	return code;
}
