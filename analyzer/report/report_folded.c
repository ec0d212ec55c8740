/*
 * --folded: folded stacks ("a;b;c weight", outermost first) for
 * flamegraph.pl and speedscope, one line per allocating stack.
 */
#include "report.h"

#include <inttypes.h>
#include <string.h>

/* Folded format separators are ';' and the last space: replace them. */
static void frame_name(FILE *out, const char *s)
{
	for (; *s; s++)
		fputc(*s == ';' || *s == ' ' || *s == '\n' ? '_' : *s, out);
}

void gt_report_folded(FILE *out, const struct gt_summary *s, struct gt_symbolizer *sym,
		      int by_bytes)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct gt_image *img = s->procs[i].img;
		const char *name = img->argc ? img->argv[0] : img->exe ? img->exe : "?";
		const char *slash = strrchr(name, '/');
		name = slash ? slash + 1 : name;
		for (size_t k = 0; k < img->heap.nstacks; k++) {
			const struct gt_stack_counts *c = &img->heap.stacks[k];
			uint64_t w = by_bytes ? c->bytes : c->allocations;
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
			struct gt_frame *f;
			size_t first,
				n = gt_symbolize_program_frames(sym, img, c->stack, &f, &first);
			for (size_t k = n; k > first; k--) {
				fputc(';', out);
				frame_name(out, f[k - 1].function);
			}
			gt_frames_free(f, n);
			fprintf(out, " %" PRIu64 "\n", w);
		}
	}
}
