/*
 * --folded: folded stacks ("a;b;c weight", outermost first) for
 * flamegraph.pl and speedscope, one line per allocating stack, written
 * process by process as the summary adds them (report.h).
 */
#include "report.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "command_label.h"
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

struct gt_folded {
	FILE *tmp;
	int by_bytes;
};

struct gt_folded *gt_folded_new(int by_bytes)
{
	struct gt_folded *f = gt_xcalloc(1, sizeof(*f));
	f->tmp = tmpfile();
	if (!f->tmp)
		gt_die("cannot create a temporary file: %s", strerror(errno));
	f->by_bytes = by_bytes;
	return f;
}

void gt_folded_add(struct gt_folded *f, const struct gt_proc *p)
{
	FILE *out = f->tmp;
	const struct gt_image *img = p->img;
	const char *name, *word;
	gt_program_words(img, &name, &word);
	for (size_t k = 0; k < p->nstacks; k++) {
		const struct gt_proc_stack *st = &p->stacks[k];
		uint64_t w = f->by_bytes ? st->counts->bytes : st->counts->allocations;
		if (!w)
			continue;
		/* The root frame tells images apart, also a fork and its exec
		 * (same pid): "101_git_pack-objects". */
		fprintf(out, "%" PRIu32 "_", img->pid);
		frame_name(out, name);
		if (*word) {
			fputc('_', out);
			frame_name(out, word);
		}
		for (size_t i = st->nfunctions; i > 0; i--) {
			fputc(';', out);
			frame_name(out, st->functions[i - 1]);
		}
		fprintf(out, " %" PRIu64 "\n", w);
	}
}

void gt_folded_print(struct gt_folded *f, FILE *out)
{
	char buf[65536];
	size_t n;
	if (fflush(f->tmp) || ferror(f->tmp))
		gt_die("cannot write a temporary file: %s", strerror(errno));
	rewind(f->tmp);
	while ((n = fread(buf, 1, sizeof(buf), f->tmp)) > 0)
		fwrite(buf, 1, n, out);
	if (ferror(f->tmp))
		gt_die("cannot read a temporary file: %s", strerror(errno));
}

void gt_folded_free(struct gt_folded *f)
{
	if (!f)
		return;
	fclose(f->tmp);
	free(f);
}
