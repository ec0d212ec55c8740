/*
 * Which roots of a named trace file are commands of one pipeline, told by
 * the pipes between them (pipeline_marks.c).
 */
#ifndef GT_PIPELINE_MARKS_H
#define GT_PIPELINE_MARKS_H

/*
 * Whether a root that wrote the trace file open on fd held the other end
 * of a pipe this process has on its standard input, output or error: the
 * two are commands of one pipeline, and this root joins the file.
 */
int gt_pipeline_wrote(int fd);

/* Marks the ends of pipes this process has on fds 0 to 2 on the trace file. */
void gt_pipeline_mark(int fd);

/* Forgets every mark: the file is being replaced, its exclusive lock held. */
void gt_pipeline_forget(int fd);

#endif /* GT_PIPELINE_MARKS_H */
