/*
 * GITTRACE_* settings. Each is read once per process image with
 * secure_getenv, so a setuid or setgid program ignores them all. A bad
 * value is never fatal: it gets its default and one warning line (the
 * root process of a run warns; descendants stay quiet, see session.c).
 * The README's settings table documents each of these.
 */
#include "settings.h"
#include "log.h"

#include <stdlib.h>
#include <string.h>

#define DEFAULT_STACK_DEPTH	  32
#define DEFAULT_BUFFER_SIZE	  (1u << 20)
#define MIN_BUFFER_SIZE		  (64u << 10)
#define MAX_BUFFER_SIZE		  (16u << 20)
#define DEFAULT_ZSTD_LEVEL	  3
#define DEFAULT_FLUSH_INTERVAL_MS 1000
#define DEFAULT_FILE_MODE	  0600

struct gt_settings gt_settings;

/*
 * What a descendant reads: not GITTRACE_OUTPUT, GITTRACE_FILE_MODE or
 * TMPDIR, which only a run's first process does (session.c).
 */
static const char *const inherited_names[GT_SETTINGS_INHERITED] = {
	"GITTRACE_STACK_DEPTH",
	"GITTRACE_BUFFER_SIZE",
	"GITTRACE_ZSTD_LEVEL",
	"GITTRACE_FLUSH_INTERVAL_MS",
};
/* Their entries, copied: the program may change its environment later. */
static char inherited[GT_SETTINGS_INHERITED][64];

static void keep_inherited(void)
{
	for (int i = 0; i < GT_SETTINGS_INHERITED; i++) {
		const char *name = inherited_names[i], *value = secure_getenv(name);
		size_t n = strlen(name);
		inherited[i][0] = '\0';
		if (value && n + 1 + strlen(value) < sizeof(inherited[i])) {
			memcpy(inherited[i], name, n);
			inherited[i][n] = '=';
			strcpy(inherited[i] + n + 1, value);
		}
	}
}

const char *gt_settings_inherited(int i)
{
	return inherited[i][0] ? inherited[i] : NULL;
}

/*
 * Parses a whole decimal number with an optional k/m/g suffix (powers of
 * 1024) when suffixes is set, or an octal number when base is 8. Returns
 * 0 and stores it in *out, or -1 if the text is not such a number.
 */
static int parse_number(const char *text, int base, int suffixes, uint64_t *out)
{
	uint64_t v = 0;
	const char *p = text;
	if (!*p)
		return -1;
	for (; *p >= '0' && *p < '0' + base; p++) {
		if (v > (UINT64_MAX - 9) / (uint64_t)base)
			return -1;
		v = v * (uint64_t)base + (uint64_t)(*p - '0');
	}
	if (p == text)
		return -1;
	if (suffixes && *p) {
		unsigned shift = *p == 'k' || *p == 'K'	  ? 10
				 : *p == 'm' || *p == 'M' ? 20
				 : *p == 'g' || *p == 'G' ? 30
							  : 0;
		if (!shift || v > (UINT64_MAX >> shift))
			return -1;
		v <<= shift;
		p++;
	}
	if (*p)
		return -1;
	*out = v;
	return 0;
}

/* v as the user writes it in base (10 or 8, octal with its leading 0); buf holds 24. */
static char *number_text(uint64_t v, int base, char *buf)
{
	if (base != 8)
		return gt_utoa(v, buf);
	char digits[23];
	size_t n = 0;
	do {
		digits[n++] = (char)('0' + (v & 7));
		v >>= 3;
	} while (v);
	size_t len = 0;
	if (n > 1 || digits[0] != '0')
		buf[len++] = '0';
	while (n)
		buf[len++] = digits[--n];
	buf[len] = '\0';
	return buf;
}

/*
 * Reads variable name as a number in [min, max]; missing means dflt,
 * invalid means dflt plus a warning if warn is set.
 */
static uint64_t number_setting(const char *name, int base, int suffixes, uint64_t min, uint64_t max,
			       uint64_t dflt, int warn)
{
	const char *text = secure_getenv(name);
	uint64_t v;
	if (!text)
		return dflt;
	if (parse_number(text, base, suffixes, &v) == 0 && v >= min && v <= max)
		return v;
	if (warn) {
		char lo[24], hi[24], d[24];
		gt_warn("invalid ", name, "='", text, "' (expected ", base == 8 ? "octal " : "",
			number_text(min, base, lo), "..", number_text(max, base, hi), "), using ",
			number_text(dflt, base, d), NULL);
	}
	return dflt;
}

void gt_settings_load(struct gt_settings *s, int warn)
{
	s->output = secure_getenv("GITTRACE_OUTPUT");
	if (s->output && !*s->output)
		s->output = NULL;
	/*
	 * Not the current directory, where a trace file would be a new file
	 * in the program's work: `git status` would list it, `git add -A`
	 * commit it. As mktemp does: $TMPDIR if it is an absolute path.
	 */
	s->default_dir = secure_getenv("TMPDIR");
	if (!s->default_dir || s->default_dir[0] != '/')
		s->default_dir = "/tmp";
	s->stack_depth = (unsigned)number_setting("GITTRACE_STACK_DEPTH", 10, 0, 0,
						  GT_STACK_DEPTH_MAX, DEFAULT_STACK_DEPTH, warn);
	s->buffer_size = (size_t)number_setting("GITTRACE_BUFFER_SIZE", 10, 1, MIN_BUFFER_SIZE,
						MAX_BUFFER_SIZE, DEFAULT_BUFFER_SIZE, warn);
	s->zstd_level =
		(int)number_setting("GITTRACE_ZSTD_LEVEL", 10, 0, 1, 19, DEFAULT_ZSTD_LEVEL, warn);
	s->flush_interval_ns = 1000000u * number_setting("GITTRACE_FLUSH_INTERVAL_MS", 10, 0, 10,
							 3600000, DEFAULT_FLUSH_INTERVAL_MS, warn);
	s->file_mode = (unsigned)number_setting("GITTRACE_FILE_MODE", 8, 0, 0, 0777,
						DEFAULT_FILE_MODE, warn);
	keep_inherited();
}
