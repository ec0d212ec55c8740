/*
 * Unit test: classification of mapped paths into git's kinds.
 */
#include <string.h>

#include "../check.h"
#include "mapkind.h"

static enum gt_map_kind k(const char *path)
{
	return gt_map_classify(path, strlen(path));
}

int main(void)
{
	CHECK(k("") == GT_MAP_ANONYMOUS);
	CHECK(k("/r/.git/objects/pack/pack-1a2b.pack") == GT_MAP_PACK);
	CHECK(k("/srv/repo.git/objects/pack/pack-1a2b.pack") == GT_MAP_PACK);
	CHECK(k("/r/.git/objects/pack/pack-1a2b.pack (deleted)") == GT_MAP_PACK);
	CHECK(k("/r/.git/objects/pack/pack-1a2b.idx") == GT_MAP_PACK_METADATA);
	CHECK(k("/r/.git/objects/pack/pack-1a2b.rev") == GT_MAP_PACK_METADATA);
	CHECK(k("/r/.git/objects/pack/pack-1a2b.bitmap") == GT_MAP_PACK_METADATA);
	CHECK(k("/r/.git/objects/pack/pack-1a2b.mtimes") == GT_MAP_PACK_METADATA);
	CHECK(k("/r/.git/objects/pack/multi-pack-index") == GT_MAP_PACK_METADATA);
	/* Packs being written, under their temporary names (git fast-import maps them). */
	CHECK(k("/r/.git/objects/pack/tmp_pack_Ab12Cd") == GT_MAP_PACK);
	CHECK(k("/r/.git/objects/pack/tmp_pack_Ab12Cd (deleted)") == GT_MAP_PACK);
	CHECK(k("/r/.git/objects/pack/tmp_idx_Ab12Cd") == GT_MAP_PACK_METADATA);
	CHECK(k("/r/.git/objects/tmp_pack_Ab12Cd") == GT_MAP_OTHER);
	CHECK(k("/r/.git/objects/info/commit-graph") == GT_MAP_PACK_METADATA);
	CHECK(k("/r/.git/objects/info/commit-graphs/graph-ab.graph") == GT_MAP_PACK_METADATA);
	CHECK(k("/r/.git/objects/ab/0123456789abcdef0123456789abcdef012345") == GT_MAP_LOOSE);
	CHECK(k("objects/ab/0123456789abcdef0123456789abcdef012345") == GT_MAP_LOOSE);
	/* 37 hex digits, or not hex, or not under objects/: not loose. */
	CHECK(k("/r/.git/objects/ab/0123456789abcdef0123456789abcdef01234") == GT_MAP_OTHER);
	CHECK(k("/r/.git/objects/ab/0123456789abcdef0123456789abcdef01234g") == GT_MAP_OTHER);
	CHECK(k("/r/src/ab/0123456789abcdef0123456789abcdef012345") == GT_MAP_OTHER);
	CHECK(k("/r/.git/index") == GT_MAP_INDEX);
	CHECK(k("/r/.git/index.lock") == GT_MAP_INDEX);
	CHECK(k("/srv/repo.git/index") == GT_MAP_INDEX);
	CHECK(k("/r/.git/worktrees/wt/index") == GT_MAP_INDEX);
	CHECK(k("/r/.git/sharedindex.0123") == GT_MAP_INDEX);
	CHECK(k("/r/docs/index") == GT_MAP_OTHER);
	CHECK(k("/r/.git/packed-refs") == GT_MAP_OTHER);
	CHECK(k("/r/notobjects/pack/x.pack") == GT_MAP_OTHER);
	CHECK(!strcmp(gt_map_kind_names[GT_MAP_PACK_METADATA], "pack-metadata"));
	return check_result("test_mapkind");
}
