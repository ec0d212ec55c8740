/* The identity of the process image: IMAGE, MODULE and END records (image.c). */
#ifndef GT_IMAGE_H
#define GT_IMAGE_H

#include <stdint.h>

#include "gittrace/format.h"

/*
 * Writes IMAGE and MODULE records of a new image, at once: a process
 * killed before its first block is full still shows in the trace, as cut.
 */
void gt_image_begin(int origin, uint64_t parent_image_id);
/* Writes the MODULE records again (after dlopen). */
void gt_image_modules(void);
/*
 * Writes them again if the loader has loaded a module since: glibc loads
 * some itself, without dlopen (iconv's gconv modules, NSS's). Called when a
 * new stack is written, which may pass through one; not under the stream
 * lock.
 */
void gt_image_modules_if_loaded(void);
/* Writes END and flushes; later calls are written at once. */
void gt_image_end(enum gt_end_reason reason, int status);
/* The exec announced by gt_image_end failed: the image goes on. */
void gt_image_exec_failed(int err);
/* A new random id for an image. */
uint64_t gt_image_new_id(void);
extern uint64_t gt_image_id;

#endif /* GT_IMAGE_H */
