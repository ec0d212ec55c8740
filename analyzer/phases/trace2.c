/*
 * Reads git's trace2 event stream (trace2.h) with jansson: one JSON object
 * a line. Lines that are not trace2 events are counted and skipped, so a
 * damaged or cut stream still yields what it holds.
 */
#define _DEFAULT_SOURCE /* timegm, getline */
#include "trace2.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "die.h"

/* "2026-12-03T07:05:07.081635Z" (git's tr2_tbuf_utc_datetime_extended) to ns since the epoch. */
static int parse_time(const char *s, uint64_t *ns)
{
	struct tm tm = {0};
	unsigned us;
	char z;
	if (sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d.%6u%c", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
		   &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &us, &z) != 8 ||
	    z != 'Z' || us > 999999)
		return 0;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	time_t secs = timegm(&tm);
	if (secs < 0)
		return 0;
	*ns = (uint64_t)secs * 1000000000u + (uint64_t)us * 1000u;
	return 1;
}

/* The pid in the sid's last component, "...-P<8 hex digits>". */
static int pid_of_sid(const char *sid, uint32_t *pid)
{
	const char *last = strrchr(sid, '/');
	last = last ? last + 1 : sid;
	const char *p = strstr(last, "-P");
	if (!p)
		return 0;
	char *end;
	errno = 0;
	unsigned long v = strtoul(p + 2, &end, 16);
	if (errno || end == p + 2 || *end || v > UINT32_MAX)
		return 0;
	*pid = (uint32_t)v;
	return 1;
}

static uint32_t row_of(struct gt_trace2 *t, const char *category, const char *label)
{
	for (size_t i = 1; i < t->nrows; i++)
		if (!strcmp(t->rows[i].category, category) && !strcmp(t->rows[i].label, label))
			return (uint32_t)i;
	if (t->nrows == t->rows_cap) {
		t->rows_cap = t->rows_cap ? 2 * t->rows_cap : 16;
		t->rows = gt_xrealloc(t->rows, t->rows_cap * sizeof(*t->rows));
	}
	t->rows[t->nrows].category = gt_xstrndup(category, strlen(category));
	t->rows[t->nrows].label = gt_xstrndup(label, strlen(label));
	return (uint32_t)t->nrows++;
}

static struct gt_trace2_session *session_of(struct gt_trace2 *t, const char *sid)
{
	struct gt_trace2_session *s;
	HASH_FIND_STR(t->sessions, sid, s);
	if (s)
		return s;
	s = gt_xcalloc(1, sizeof(*s));
	s->sid = gt_xstrndup(sid, strlen(sid));
	s->has_pid = pid_of_sid(sid, &s->pid);
	HASH_ADD_KEYPTR(hh, t->sessions, s->sid, strlen(s->sid), s);
	t->nsessions++;
	return s;
}

static void add_segment(struct gt_trace2_session *s, uint64_t t_ns)
{
	uint32_t row = s->nopen ? s->open[s->nopen - 1] : GT_TRACE2_OUTSIDE;
	if (s->nsegs && s->segs[s->nsegs - 1].t_ns == t_ns) {
		s->segs[s->nsegs - 1].row = row; /* same microsecond: the later state holds */
		return;
	}
	if (s->nsegs == s->segs_cap) {
		s->segs_cap = s->segs_cap ? 2 * s->segs_cap : 16;
		s->segs = gt_xrealloc(s->segs, s->segs_cap * sizeof(*s->segs));
	}
	s->segs[s->nsegs].t_ns = t_ns;
	s->segs[s->nsegs].row = row;
	s->nsegs++;
}

static const char *str_member(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* Applies one event; 0 if it is not a trace2 event. */
static int apply_event(struct gt_trace2 *t, json_t *ev)
{
	const char *event = str_member(ev, "event"), *sid = str_member(ev, "sid");
	const char *time = str_member(ev, "time"), *thread = str_member(ev, "thread");
	uint64_t ns;
	if (!json_is_object(ev) || !event || !sid || !*sid || !time || !parse_time(time, &ns))
		return 0;
	struct gt_trace2_session *s = session_of(t, sid);
	if (!s->first_ns || ns < s->first_ns)
		s->first_ns = ns;
	if (ns > s->last_ns)
		s->last_ns = ns;
	if (!strcmp(event, "start")) {
		double t_abs = json_number_value(json_object_get(ev, "t_abs"));
		if (t_abs >= 0 && t_abs * 1e9 < (double)ns)
			s->process_start_ns = ns - (uint64_t)(t_abs * 1e9);
	}
	if (!strcmp(event, "exit") || !strcmp(event, "atexit"))
		s->exited = 1;
	if (!thread || strcmp(thread, "main"))
		return 1;
	if (!strcmp(event, "region_enter")) {
		const char *category = str_member(ev, "category"), *label = str_member(ev, "label");
		if (s->nopen == s->open_cap) {
			s->open_cap = s->open_cap ? 2 * s->open_cap : 8;
			s->open = gt_xrealloc(s->open, s->open_cap * sizeof(*s->open));
		}
		s->open[s->nopen++] = row_of(t, category ? category : "", label ? label : "");
		add_segment(s, ns);
	} else if (!strcmp(event, "region_leave") && s->nopen) {
		s->nopen--;
		add_segment(s, ns);
	}
	return 1;
}

/* What reading found wrong, for one warning at the end. */
struct read_stats {
	uint64_t lines, bad, first_bad;
	char *bad_file; /* the file of the first bad line */
	int cut;	/* the only bad line is the incomplete last line of its file */
};

static void read_file(struct gt_trace2 *t, const char *path, struct read_stats *st)
{
	FILE *f = fopen(path, "r");
	if (!f)
		gt_die("cannot open '%s': %s", path, strerror(errno));
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	uint64_t n = 0;
	while ((len = getline(&line, &cap, f)) > 0) {
		n++;
		json_t *ev = json_loadb(line, (size_t)len, JSON_DECODE_ANY, NULL);
		if (!ev || !apply_event(t, ev)) {
			st->cut = !st->bad && line[len - 1] != '\n';
			if (!st->bad++) {
				st->first_bad = n;
				st->bad_file = gt_xstrndup(path, strlen(path));
			}
		}
		json_decref(ev);
	}
	int failed = ferror(f);
	free(line);
	fclose(f);
	if (failed)
		gt_die("cannot read '%s'", path);
	st->lines += n;
}

/* Every regular file of a directory (GIT_TRACE2_EVENT=DIR: one file a process), by name. */
static void read_dir(struct gt_trace2 *t, const char *dir, struct read_stats *st)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, alphasort);
	if (n < 0)
		gt_die("cannot read '%s': %s", dir, strerror(errno));
	for (int i = 0; i < n; i++) {
		size_t len = strlen(dir) + strlen(names[i]->d_name) + 2;
		char *path = gt_xmalloc(len);
		snprintf(path, len, "%s/%s", dir, names[i]->d_name);
		struct stat sb;
		if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode))
			read_file(t, path, st);
		free(path);
		free(names[i]);
	}
	free(names);
}

size_t gt_trace2_read(struct gt_trace2 *t, const char *path)
{
	memset(t, 0, sizeof(*t));
	t->path = path;
	row_of(t, "", "(outside any region)");
	struct read_stats st = {0};
	struct stat sb;
	if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
		read_dir(t, path, &st);
	else
		read_file(t, path, &st);
	if (!st.lines)
		gt_warnf("trace2 file '%s' is empty: no phases", path);
	else if (st.cut && st.bad == 1)
		gt_warnf("trace2 file '%s' is cut short (its last line is incomplete): phases "
			 "after it are missing",
			 st.bad_file);
	else if (st.bad)
		gt_warnf("trace2 file '%s': %" PRIu64 " of %" PRIu64
			 " lines are not trace2 events (first: line %" PRIu64 "%s%s); they are "
			 "skipped",
			 path, st.bad, st.lines, st.first_bad,
			 strcmp(st.bad_file, path) ? " of " : "",
			 strcmp(st.bad_file, path) ? st.bad_file : "");
	free(st.bad_file);
	return t->nsessions;
}

int gt_trace2_holds(const struct gt_trace2_session *s, uint64_t t_ns)
{
	return t_ns >= s->first_ns && (t_ns <= s->last_ns || !s->exited);
}

uint32_t gt_trace2_row_at(const struct gt_trace2_session *s, uint64_t t_ns)
{
	if (t_ns < s->first_ns || t_ns > s->last_ns || !s->nsegs || t_ns < s->segs[0].t_ns)
		return GT_TRACE2_OUTSIDE;
	size_t lo = 0, hi = s->nsegs; /* the last segment starting at or before t_ns */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->segs[mid].t_ns <= t_ns)
			lo = mid;
		else
			hi = mid;
	}
	return s->segs[lo].row;
}

void gt_trace2_row_name(char *buf, size_t size, const struct gt_trace2_row *r)
{
	snprintf(buf, size, "%s%s%s", r->category, *r->category ? ":" : "", r->label);
}

void gt_trace2_release(struct gt_trace2 *t)
{
	struct gt_trace2_session *s, *tmp;
	HASH_ITER(hh, t->sessions, s, tmp)
	{
		HASH_DEL(t->sessions, s);
		free(s->sid);
		free(s->segs);
		free(s->open);
		free(s);
	}
	for (size_t i = 0; i < t->nrows; i++) {
		free(t->rows[i].category);
		free(t->rows[i].label);
	}
	free(t->rows);
	memset(t, 0, sizeof(*t));
}
