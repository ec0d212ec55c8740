/*
 * Map classification by path. See mapkind.h; the rules follow where git
 * keeps each file (gitrepository-layout(5)).
 */
#include "mapkind.h"

#include <string.h>

const char *const gt_map_kind_names[GT_MAP_KIND_COUNT] = {
	"pack", "pack-metadata", "loose", "index", "other", "anonymous",
};

static int ends_with(const char *s, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);
	return n >= k && !memcmp(s + n - k, suffix, k);
}

static int starts_with(const char *s, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);
	return n >= k && !memcmp(s, prefix, k);
}

static int equals(const char *s, size_t n, const char *word)
{
	return n == strlen(word) && !memcmp(s, word, n);
}

static int all_hex(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strchr("0123456789abcdef", s[i]) || !s[i])
			return 0;
	return 1;
}

/* Does path[0..n) contain needle as a substring? */
static int contains(const char *s, size_t n, const char *needle)
{
	size_t k = strlen(needle);
	for (size_t i = 0; i + k <= n; i++)
		if (!memcmp(s + i, needle, k))
			return 1;
	return 0;
}

/* Finds the last component of s[0..n): sets *dir_len to where it starts. */
static size_t last_slash(const char *s, size_t n)
{
	while (n > 0 && s[n - 1] != '/')
		n--;
	return n;
}

enum gt_map_kind gt_map_classify(const char *path, size_t len)
{
	if (ends_with(path, len, " (deleted)"))
		len -= strlen(" (deleted)");
	if (len == 0)
		return GT_MAP_ANONYMOUS;

	size_t b = last_slash(path, len);
	const char *base = path + b;
	size_t base_len = len - b;
	/* The parent directory: path[d .. b-1). */
	size_t parent_end = b ? b - 1 : 0;
	size_t d = last_slash(path, parent_end);
	const char *parent = path + d;
	size_t parent_len = parent_end - d;

	if (equals(parent, parent_len, "pack") && d >= 8 &&
	    (d == 8 ? starts_with(path, len, "objects/") : !memcmp(path + d - 9, "/objects/", 9))) {
		/* A pack being written has a temporary name (odb_mkstemp): git
		 * fast-import maps its windows before it is renamed. */
		if (ends_with(base, base_len, ".pack") || starts_with(base, base_len, "tmp_pack_"))
			return GT_MAP_PACK;
		if (ends_with(base, base_len, ".idx") || ends_with(base, base_len, ".rev") ||
		    ends_with(base, base_len, ".bitmap") || ends_with(base, base_len, ".mtimes") ||
		    equals(base, base_len, "multi-pack-index") ||
		    starts_with(base, base_len, "tmp_idx_"))
			return GT_MAP_PACK_METADATA;
		return GT_MAP_OTHER;
	}
	if (contains(path, len, "objects/info/commit-graph") ||
	    contains(path, len, "objects/pack/multi-pack-index"))
		return GT_MAP_PACK_METADATA;
	if (parent_len == 2 && all_hex(parent, 2) && base_len >= 38 && all_hex(base, base_len) &&
	    (d == 8 ? starts_with(path, len, "objects/")
		    : d > 8 && !memcmp(path + d - 9, "/objects/", 9)))
		return GT_MAP_LOOSE;
	if (equals(base, base_len, "index") || equals(base, base_len, "index.lock") ||
	    starts_with(base, base_len, "sharedindex.")) {
		if (ends_with(parent, parent_len, ".git") || contains(path, b, "/.git/") ||
		    starts_with(path, b, ".git/"))
			return GT_MAP_INDEX;
	}
	return GT_MAP_OTHER;
}

enum gt_map_kind gt_map_kind_of(uint64_t flags, const char *path, size_t len)
{
	return (flags & 0x20) ? GT_MAP_ANONYMOUS : gt_map_classify(path, len);
}
