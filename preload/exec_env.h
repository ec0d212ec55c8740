/* What a program run by a traced process inherits to stay traced (exec_env.c). */
#ifndef GT_EXEC_ENV_H
#define GT_EXEC_ENV_H

#include <stddef.h>

/* What envp needs so that a new program stays in the traced run. */
struct gt_exec_env {
	size_t slots;		 /* entries of the new envp (NULL included); 0: envp as is */
	int add_session;	 /* GITTRACE_SESSION is missing */
	size_t preload_len;	 /* bytes of the new LD_PRELOAD entry (NUL included); 0: none */
	size_t preload_index;	 /* envp's LD_PRELOAD entry to replace; SIZE_MAX: append */
	const char *preload_old; /* its value, kept after libgittrace */
	size_t session_index;	 /* envp's GITTRACE_SESSION to replace; SIZE_MAX: none */
	unsigned add_settings;	 /* bit i: add gt_settings_inherited(i) */
	int add_asan_options;	 /* add ASan's link-order check off (exec_env.c) */
};

/* Finds this library's path (at start, before any exec). */
void gt_exec_env_init(void);

/* Fills e for envp. Allocation-free, like the build below. */
void gt_exec_env_measure(char *const envp[], struct gt_exec_env *e);

/*
 * envp itself if e->slots is 0; else slots (e->slots entries) filled with
 * envp plus what the run needs, the new LD_PRELOAD entry written into
 * preload_buf (e->preload_len bytes).
 */
char *const *gt_exec_env_build(char *const envp[], const struct gt_exec_env *e, char **slots,
			       char *preload_buf);

#endif /* GT_EXEC_ENV_H */
