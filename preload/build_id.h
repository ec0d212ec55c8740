/* The GNU build-id of a loaded module (build_id.c). */
#ifndef GT_BUILD_ID_H
#define GT_BUILD_ID_H

#include <link.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Finds the build-id note among the module's program headers, in memory.
 * *id is NULL and *len 0 when it has none.
 */
void gt_build_id_of(const struct dl_phdr_info *info, const uint8_t **id, size_t *len);

#endif /* GT_BUILD_ID_H */
