/*
 * What a traced process passes on to a program it execs or spawns, so that
 * the whole tree stays traced into one file:
 *   - GITTRACE_SESSION=<trace path> (session.c), when envp lacks it;
 *   - libgittrace in LD_PRELOAD, put back in front when envp no longer
 *     names it. Programs rewrite LD_PRELOAD: git's test library runs git
 *     with LD_PRELOAD=libc_malloc_debug.so.0, which would silently leave
 *     those processes untraced. The run's session says the user asked for
 *     the whole tree, so the tracer comes back; the program's own entries
 *     stay, after it.
 *   - with the session, the run's GITTRACE_* settings that envp lacks: an
 *     environment made anew (env -i) would otherwise trace its programs
 *     with the defaults (stacks in a counting run);
 *   - with the session, where envp has no ASAN_OPTIONS and this process's
 *     own turn ASan's link-order check off (the launcher does): ASan's
 *     runtime refuses to start where libgittrace comes before it in
 *     LD_PRELOAD, so an ASan program that env -i starts would fail.
 * Nothing is added once the run is untraced (GITTRACE_SESSION=-), nor
 * where the program asks for a new run (GITTRACE_SESSION=+, session.h).
 *
 * The new environment lives in arrays on the caller's stack: exec may
 * follow a fork in a threaded program, where allocating is unsafe.
 */
#include "exec_env.h"
#include "readable.h"
#include "session.h"
#include "settings.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define PRELOAD_VAR	    "LD_PRELOAD="
#define ASAN_LINK_ORDER_OFF "verify_asan_link_order=0"
static char asan_options[] = "ASAN_OPTIONS=" ASAN_LINK_ORDER_OFF;

/* This library's path, as LD_PRELOAD must name it; empty if unknown. */
static char self_path[PATH_MAX];

/* This process's ASAN_OPTIONS turned the link-order check off. */
static int asan_link_order_off;

void gt_exec_env_init(void)
{
	const char *asan = getenv("ASAN_OPTIONS");
	asan_link_order_off = asan && strstr(asan, ASAN_LINK_ORDER_OFF);
	Dl_info info;
	if (!dladdr((void *)gt_exec_env_init, &info) || !info.dli_fname)
		return;
	/* A relative path would break in a child that changed directory. */
	if (strchr(info.dli_fname, '/') && realpath(info.dli_fname, self_path))
		return;
	if (strlen(info.dli_fname) < sizeof(self_path))
		strcpy(self_path, info.dli_fname);
}

/* The file name of this library, past self_path's last '/'. */
static const char *self_name(void)
{
	const char *slash = strrchr(self_path, '/');
	return slash ? slash + 1 : self_path;
}

/*
 * Whether an entry of len bytes in an LD_PRELOAD list names this library
 * by another path: a relative one, which the loader took where the run
 * started and fails at in a program that changed directory ("cannot be
 * preloaded" on its stderr), or another absolute one to the same name.
 */
static int names_self_elsewhere(const char *entry, size_t len)
{
	const char *name = self_name();
	size_t n = strlen(name);
	return len >= n && !memcmp(entry + len - n, name, n) &&
	       (len == n || entry[len - n - 1] == '/');
}

/* Whether the LD_PRELOAD list (separated by ':' or ' ') names this library. */
static int names_self(const char *list)
{
	size_t n = strlen(self_path);
	for (const char *p = list; *p;) {
		size_t len = strcspn(p, ": ");
		if (len == n && !memcmp(p, self_path, n))
			return 1;
		p += len;
		p += *p != '\0';
	}
	return 0;
}

/* Whether the run is traced: there is a session, and it is not "-". */
static const char *traced_session(void)
{
	const char *s = gt_session_env();
	if (!s || !strcmp(strchr(s, '=') + 1, "-"))
		return NULL;
	return s;
}

/* Whether envp has an entry for the variable of entry ("NAME=value"). */
static int has_variable(char *const envp[], const char *entry)
{
	size_t name_len = (size_t)(strchr(entry, '=') + 1 - entry);
	for (size_t i = 0; envp && envp[i]; i++)
		if (!strncmp(envp[i], entry, name_len))
			return 1;
	return 0;
}

/* The bits of the run's settings envp lacks (gt_exec_env.add_settings). */
static unsigned settings_missing(char *const envp[])
{
	unsigned bits = 0;
	for (int i = 0; i < GT_SETTINGS_INHERITED; i++) {
		const char *entry = gt_settings_inherited(i);
		if (entry && !has_variable(envp, entry))
			bits |= 1u << i;
	}
	return bits;
}

void gt_exec_env_measure(char *const envp[], struct gt_exec_env *e)
{
	const char *session = gt_session_env();
	memset(e, 0, sizeof(*e));
	if (!session)
		return;
	/*
	 * A bad envp: the exec fails with EFAULT, as untraced. Not probed
	 * once the run is untraced here: a process that entered a sandbox
	 * makes no system call of the tracer's own.
	 */
	if (traced_session() && !gt_readable_strings(envp))
		return;
	size_t name_len = (size_t)(strchr(session, '=') + 1 - session);
	int has_session = 0;
	const char *preload = NULL;
	size_t n = 0;
	e->preload_index = SIZE_MAX;
	e->session_index = SIZE_MAX;
	for (; envp && envp[n]; n++) {
		if (!strncmp(envp[n], session, name_len)) {
			has_session = 1;
			if (envp[n][name_len] == GT_SESSION_NEW) {
				/* A new run, asked for by this program: its own to set up. */
				if (!gt_session_began_at(envp[n]))
					return;
				/* The request this image began at: its run now. */
				e->session_index = n;
			} else if (!traced_session() && strcmp(envp[n], session)) {
				/* The run's path, inherited, where this process stopped the
				 * run (a sandbox, a file it could not open): "-" instead. */
				e->session_index = n;
			}
		} else if (!strncmp(envp[n], PRELOAD_VAR, strlen(PRELOAD_VAR))) {
			/* The loader takes the last one. */
			preload = envp[n] + strlen(PRELOAD_VAR);
			e->preload_index = n;
		}
	}
	e->add_session = !has_session;
	if (e->add_session && traced_session()) {
		e->add_settings = settings_missing(envp);
		e->add_asan_options = asan_link_order_off && !has_variable(envp, asan_options);
	}
	if (traced_session() && self_path[0] && !(preload && names_self(preload))) {
		e->preload_old = preload;
		e->preload_len = strlen(PRELOAD_VAR) + strlen(self_path) +
				 (preload && *preload ? 1 + strlen(preload) : 0) + 1;
	}
	if (e->add_session || e->preload_len || e->session_index != SIZE_MAX)
		/* the session, LD_PRELOAD if new, the settings, ASAN_OPTIONS, NULL */
		e->slots = n + 3 + (size_t)__builtin_popcount(e->add_settings) +
			   (size_t)e->add_asan_options;
}

char *const *gt_exec_env_build(char *const envp[], const struct gt_exec_env *e, char **slots,
			       char *preload_buf)
{
	if (!e->slots)
		return (char *const *)envp;
	if (e->preload_len) {
		char *p = preload_buf;
		p = stpcpy(p, PRELOAD_VAR);
		p = stpcpy(p, self_path);
		/* The program's entries after it, but this library by another path. */
		for (const char *q = e->preload_old ? e->preload_old : ""; *q;) {
			size_t len = strcspn(q, ": ");
			if (len && !names_self_elsewhere(q, len)) {
				*p++ = ':';
				memcpy(p, q, len);
				p += len;
			}
			q += len;
			q += *q != '\0';
		}
		*p = '\0';
	}
	size_t n = 0;
	for (size_t i = 0; envp && envp[i]; i++) {
		if (e->preload_len && i == e->preload_index)
			slots[n++] = preload_buf;
		else if (i == e->session_index)
			slots[n++] = (char *)gt_session_env();
		else
			slots[n++] = envp[i];
	}
	if (e->preload_len && e->preload_index == SIZE_MAX)
		slots[n++] = preload_buf;
	if (e->add_session)
		slots[n++] = (char *)gt_session_env();
	for (int i = 0; i < GT_SETTINGS_INHERITED; i++)
		if (e->add_settings & (1u << i))
			slots[n++] = (char *)gt_settings_inherited(i);
	if (e->add_asan_options)
		slots[n++] = asan_options;
	slots[n] = NULL;
	return slots;
}
