/*
 * Classifies a mapped file by its path into the kinds git users reason
 * about: pack windows, whole-file pack metadata, loose objects, the index,
 * other files, anonymous memory.
 */
#ifndef GT_MAPKIND_H
#define GT_MAPKIND_H

#include <stddef.h>
#include <stdint.h>

enum gt_map_kind {
	GT_MAP_PACK = 0,	  /* .../objects/pack/NAME.pack: windows of pack data */
	GT_MAP_PACK_METADATA = 1, /* .idx .rev .bitmap .mtimes, multi-pack-index, commit-graph */
	GT_MAP_LOOSE = 2,	  /* .../objects/xx/<38+ hex digits> */
	GT_MAP_INDEX = 3,	  /* index, index.lock, sharedindex.* in a .git directory */
	GT_MAP_OTHER = 4,	  /* any other file */
	GT_MAP_ANONYMOUS = 5,	  /* no file */
	GT_MAP_KIND_COUNT = 6,
};

/* "pack", "pack-metadata", "loose", "index", "other", "anonymous". */
extern const char *const gt_map_kind_names[GT_MAP_KIND_COUNT];

/*
 * Returns the kind of a map of the file at path (len bytes, not
 * NUL-terminated; empty = anonymous). A trailing " (deleted)", as
 * /proc/self/fd shows unlinked files, is ignored. An index file is only
 * recognised inside a directory named *.git (or below a /.git/ path), so a
 * work-tree file called "index" stays "other".
 */
enum gt_map_kind gt_map_classify(const char *path, size_t len);

/*
 * The kind of a map call's mapping: anonymous when flags has MAP_ANONYMOUS
 * (0x20 on Linux; it maps no file whatever the fd), else by the path.
 */
enum gt_map_kind gt_map_kind_of(uint64_t flags, const char *path, size_t len);

#endif /* GT_MAPKIND_H */
