/*
 * --folded: folded stacks ("a;b;c weight", outermost first) for
 * flamegraph.pl and speedscope, one line per allocating stack.
 */
#include "report.h"

#include <ctype.h>
#include <inttypes.h>
#include <string.h>

#include "die.h"

/*
 * Folded format separators are ';' and the last space: replace them, and
 * control characters (a line break, a terminal's escape sequences).
 */
static void frame_name(FILE *out, const char *s)
{
	for (; *s; s++)
		fputc(*s == ';' || *s == ' ' || iscntrl((unsigned char)*s) ? '_' : *s, out);
}

void gt_report_folded(FILE *out, const struct gt_summary *s, int by_bytes)
{
	if (!s->keep_stacks)
		BUG("folded stacks of a summary without its stacks");
	for (size_t i = 0; i < s->n; i++) {
		const struct gt_proc *p = &s->procs[i];
		const struct gt_image *img = p->img;
		const char *name = img->argc ? img->argv[0] : img->exe ? img->exe : "?";
		const char *slash = strrchr(name, '/');
		name = slash ? slash + 1 : name;
		for (size_t k = 0; k < p->nstacks; k++) {
			const struct gt_proc_stack *st = &p->stacks[k];
			uint64_t w = by_bytes ? st->counts->bytes : st->counts->allocations;
			if (!w)
				continue;
			/* The root frame tells images apart, also a fork and
			 * its exec (same pid): "101_git_pack-objects". */
			fprintf(out, "%" PRIu32 "_", img->pid);
			frame_name(out, name);
			if (img->argc > 1) {
				fputc('_', out);
				frame_name(out, img->argv[1]);
			}
			for (size_t f = st->nfunctions; f > 0; f--) {
				fputc(';', out);
				frame_name(out, st->functions[f - 1]);
			}
			fprintf(out, " %" PRIu64 "\n", w);
		}
	}
}
