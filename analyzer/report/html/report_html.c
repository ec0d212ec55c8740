/*
 * The --html report: one self-contained page (no network: the stylesheet,
 * the script and the data are inline). The verdict, the process tree and
 * the top-sites table are plain HTML, readable without the script; the
 * script (html_assets/report.js) draws the timelines and the flame graph
 * from the JSON data block and makes the tables sortable.
 */
#include "report.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "die.h"
#include "html_assets.h"
#include "report_html.h"
#include "utf8.h"

void gt_html_text(FILE *out, const char *s)
{
	size_t left = strlen(s);
	for (; *s; s++, left--) {
		unsigned char c = (unsigned char)*s;
		if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f) {
			fputs("&#xfffd;", out);
			continue;
		}
		if (c >= 0x80) {
			size_t len = gt_utf8_len((const unsigned char *)s, left);
			if (!len) {
				fputs("&#xfffd;", out);
				continue;
			}
			fwrite(s, 1, len, out);
			s += len - 1;
			left -= len - 1;
			continue;
		}
		switch (*s) {
		case '&':
			fputs("&amp;", out);
			break;
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		case '\'':
			fputs("&#39;", out);
			break;
		default:
			fputc(*s, out);
		}
	}
}

void gt_html_command(FILE *out, const struct gt_image *img)
{
	for (size_t i = 0; i < img->argc; i++) {
		if (i)
			fputc(' ', out);
		gt_html_text(out, img->argv[i]);
	}
	if (!img->argc)
		gt_html_text(out, img->exe ? img->exe : "?");
}

static void list(FILE *out, const char *cls, char *const *v, size_t n)
{
	if (!n)
		return;
	fprintf(out, "<ul class=\"%s\">", cls);
	for (size_t i = 0; i < n; i++) {
		fputs("<li>", out);
		gt_html_text(out, v[i]);
		fputs("</li>", out);
	}
	fputs("</ul>\n", out);
}

static void verdict(FILE *out, const struct gt_summary *s)
{
	const struct gt_verdict *v = &s->verdict;
	const char *cls = gt_verdict_class_names[v->cls];
	fprintf(out, "<section id=\"gt-verdict\" class=\"card v-%s\">\n", cls);
	fprintf(out, "<div class=\"verdict-head\"><span class=\"badge v-%s\">%s</span>", cls, cls);
	fprintf(out,
		"<span class=\"shares\">in the allocator <b>%.1f%%</b> &middot; in mmap/munmap "
		"<b>%.1f%%</b> of %s time</span></div>\n",
		100 * v->allocator_share, 100 * v->mmap_share, v->shares_of_wall ? "wall" : "CPU");
	fputs("<h2 id=\"gt-headline\">", out);
	gt_html_text(out, v->headline);
	fputs("</h2>\n", out);
	list(out, "do", v->suggestions, v->nsuggestions);
	if (v->nevidence) {
		fputs("<h3>Evidence</h3>\n", out);
		list(out, "evidence", v->evidence, v->nevidence);
	}
	if (s->nstripped) {
		fputs("<p class=\"note\">Stripped: ", out);
		for (size_t i = 0; i < s->nstripped; i++) {
			fputs(i ? ", " : "", out);
			gt_html_text(out, s->stripped[i]);
		}
		fputs(": ", out);
		gt_html_text(out, gt_stripped_advice);
		fputs(".</p>\n", out);
	}
	fputs("</section>\n", out);
}

/* The facts the script needs besides the timelines and the flame graph. */
static void procs_data(struct gt_json *j, const struct gt_summary *s)
{
	gt_json_key(j, "procs");
	gt_json_begin_array(j);
	for (size_t i = 0; i < s->n; i++) {
		const struct gt_proc *p = &s->procs[i];
		const struct gt_image *img = p->img;
		gt_json_begin_object(j);
		gt_json_key(j, "pid");
		gt_json_uint(j, img->pid);
		gt_json_key(j, "argv");
		gt_json_begin_array(j);
		for (size_t k = 0; k < img->argc; k++)
			gt_json_str(j, img->argv[k]);
		gt_json_end_array(j);
		gt_json_key(j, "exe");
		gt_json_str(j, img->exe ? img->exe : "?");
		gt_json_key(j, "events");
		gt_json_uint(j, img->events);
		gt_json_key(j, "cpu");
		gt_json_double(j, p->cpu);
		gt_json_key(j, "wall");
		gt_json_double(j, p->wall);
		gt_json_key(j, "verdict");
		gt_json_str(j, gt_verdict_class_names[p->verdict.cls]);
		gt_json_end_object(j);
	}
	gt_json_end_array(j);
}

/*
 * Writes the data block. '<' becomes \u003c, so that nothing in a string
 * (a path, a C++ name) can close the script element; JSON has '<' only in
 * strings, where the escape means the same character.
 */
static void data(FILE *out, const struct gt_summary *s, const struct gt_flame *f)
{
	FILE *tmp = tmpfile();
	if (!tmp)
		gt_die("cannot create a temporary file: %s", strerror(errno));
	struct gt_json j;
	gt_json_init(&j, tmp);
	gt_json_begin_object(&j);
	gt_json_key(&j, "kinds");
	gt_json_begin_array(&j);
	for (int k = 0; k < GT_MAP_KIND_COUNT; k++)
		gt_json_str(&j, gt_map_kind_names[k]);
	gt_json_end_array(&j);
	procs_data(&j, s);
	gt_html_timelines(&j, s);
	gt_html_flame(&j, f);
	gt_json_end_object(&j);
	if (fflush(tmp) || ferror(tmp))
		gt_die("cannot write a temporary file: %s", strerror(errno));
	rewind(tmp);
	fputs("<script type=\"application/json\" id=\"gt-data\">", out);
	int c;
	while ((c = getc(tmp)) != EOF) {
		if (c == '<')
			fputs("\\u003c", out);
		else
			putc(c, out);
	}
	if (ferror(tmp))
		gt_die("cannot read a temporary file: %s", strerror(errno));
	fclose(tmp);
	fputs("</script>\n", out);
}

static const char controls[] =
	"<div class=\"controls\"><span class=\"group\" role=\"radiogroup\">weight: "
	"<label><input type=\"radio\" name=\"gt-weight\" value=\"allocations\" checked> "
	"allocations</label>"
	"<label><input type=\"radio\" name=\"gt-weight\" value=\"bytes\"> bytes</label>"
	"<label><input type=\"radio\" name=\"gt-weight\" value=\"temporary\"> temporary</label>"
	"</span><input id=\"gt-search\" type=\"search\" placeholder=\"search functions\" "
	"aria-label=\"search functions\"><button id=\"gt-reset\" type=\"button\">reset zoom"
	"</button><span id=\"gt-match\"></span></div>\n";

void gt_report_html(FILE *out, const struct gt_summary *s, const struct gt_flame *f, size_t top,
		    size_t processes)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<title>gittrace report: ",
	      out);
	gt_html_text(out, s->path);
	fprintf(out, "</title>\n<style>%s</style>\n</head><body>\n", gt_html_css);
	fputs("<header><h1>gittrace report</h1><p class=\"meta\"><code>", out);
	gt_html_text(out, s->path);
	fprintf(out, "</code> &middot; %zu process%s &middot; %" PRIu64 " events%s</p></header>\n",
		s->n, s->n == 1 ? "" : "es", gt_model_events(s->m),
		gt_model_complete(s->m) ? "" : " &middot; <b>incomplete trace</b>");
	verdict(out, s);

	fputs("<section class=\"card\"><h2>Processes</h2>\n", out);
	gt_html_procs(out, s);
	fputs("</section>\n", out);

	fputs("<section class=\"card\"><h2>Calls by function</h2>\n", out);
	gt_html_functions(out, s);
	fputs("</section>\n", out);

	fputs("<section class=\"card\" id=\"gt-windows-section\"><h2>Pack windows</h2>\n"
	      "<p class=\"help\">Per process that mapped pack windows: the window size in "
	      "effect, pack maps and distinct regions, least-recently-used evictions, and the "
	      "smallest core.packedGitLimit at which the recorded windows need no eviction."
	      "</p>\n",
	      out);
	gt_html_windows(out, s);
	fputs("</section>\n", out);

	fputs("<section class=\"card\" id=\"gt-timelines\"><h2>Timelines</h2>\n"
	      "<p class=\"help\">Per process, on its own time axis: live heap bytes, allocations "
	      "per second, mapped bytes (pack windows in colour) and mmap (up) / munmap (down) "
	      "calls per second by file kind. Hover for values.</p>\n"
	      "<noscript><p class=\"note\">Timelines and the flame graph need JavaScript."
	      "</p></noscript>\n<div id=\"gt-timeline-list\"></div></section>\n",
	      out);

	fputs("<section class=\"card\" id=\"gt-flame-section\"><h2>Allocation flame graph</h2>\n"
	      "<p class=\"help\">Allocating call stacks, outermost at the top, one root per "
	      "process; width is the share of the chosen weight. Click a frame to zoom, click "
	      "the top row or <i>reset zoom</i> to go back.</p>\n",
	      out);
	fputs(controls, out);
	fputs("<div id=\"gt-flame\"></div></section>\n", out);

	fputs("<section class=\"card\"><h2>Top sites</h2>\n<p class=\"help\">Per process, the "
	      "sites leading by allocations, bytes or temporary allocations. Click a column "
	      "header to sort.</p>\n",
	      out);
	fputs("<div id=\"gt-sites-wrap\">", out);
	gt_html_sites(out, s, top, processes);
	fputs("</div></section>\n", out);

	fputs("<footer>gittrace-report &middot; <span id=\"gt-status\" data-state=\"loading\">"
	      "the script has not run</span></footer>\n<div id=\"gt-tip\" hidden></div>\n",
	      out);
	data(out, s, f);
	fprintf(out, "<script>%s</script>\n</body></html>\n", gt_html_js);
}
