/*
 * Unit test: the text report's note on stripped modules when a run had
 * more of them than one note holds (a script running a hundred tools): the
 * list is cut with "and N more", within its buffer. It overflowed a stack
 * buffer past ~1 KB of paths (the sanitizer run sees that; without it, the
 * missing "and N more" fails here).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>

#include "../check.h"
#include "model.h"
#include "report.h"
#include "summary.h"

#define NPATHS 100

int main(void)
{
	struct gt_model *m = gt_model_new();
	struct gt_symbolizer *sym = gt_symbolizer_new(NULL);
	struct gt_summary s;
	gt_summary_init(&s, "t.zst", sym, -1, 10, NULL);
	gt_summary_finish(&s, m);

	static char names[NPATHS][80];
	const char *paths[NPATHS];
	for (int i = 0; i < NPATHS; i++) {
		snprintf(names[i], sizeof(names[i]),
			 "/usr/lib/x86_64-linux-gnu/tool-%03d/libtool.so", i);
		paths[i] = names[i];
	}
	s.stripped = paths;
	s.nstripped = NPATHS;

	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	gt_report_text(out, &s, 10, 0);
	fclose(out);

	/* The note, its wrapped lines joined: from "note: " to the first
	 * line not indented under it. */
	const char *from = strstr(text, "note: ");
	CHECK(from != NULL);
	char note[8192];
	size_t n = 0;
	for (const char *c = from; c && *c && n + 1 < sizeof(note); c++) {
		if (*c == '\n') {
			if (strncmp(c + 1, "      ", 6))
				break;
			c += 6;
			note[n++] = ' ';
			continue;
		}
		note[n++] = *c;
	}
	note[n] = '\0';

	CHECK(strstr(note, "note: /usr/lib/x86_64-linux-gnu/tool-000/libtool.so, ") == note);
	/* Whatever fits, then the count of the rest: listed + rest = all. */
	int listed = 0;
	for (int i = 0; i < NPATHS; i++)
		listed += strstr(note, names[i]) != NULL;
	int rest = -1;
	const char *and = strstr(note, "libtool.so and ");
	CHECK(and&&sscanf(and, "libtool.so and %d more stripped: ", &rest) == 1);
	CHECK(listed > 5 && listed < NPATHS);
	CHECK(listed + rest == NPATHS);
	CHECK(strstr(note, "more stripped: sites there show module+offset") != NULL);

	free(text);
	s.stripped = NULL; /* the symbolizer's, not ours, to release */
	s.nstripped = 0;
	gt_summary_release(&s);
	gt_symbolizer_free(sym);
	gt_model_free(m);
	return check_result("report_text");
}
