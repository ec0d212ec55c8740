/* Decompressed copies of separate debug files. See debug_cache.h. */
#define _GNU_SOURCE /* asprintf, mkostemp */
#include "debug_cache.h"

#include <dirent.h>
#include <elfutils/libdwelf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "die.h"

/* Longer build-ids (never seen: GNU ld writes 20 bytes) are not cached. */
#define MAX_BUILD_ID   64
#define UNUSED_SECONDS (30L * 24 * 60 * 60)

/*
 * The cache's directory (malloc'd), or NULL when it is off: by
 * GITTRACE_DEBUG_CACHE (0, or the directory itself, absolute), else
 * ${XDG_CACHE_HOME:-$HOME/.cache}/gittrace/debug. A relative
 * XDG_CACHE_HOME is ignored, as the XDG Base Directory spec says.
 */
static char *cache_dir(void)
{
	const char *setting = getenv("GITTRACE_DEBUG_CACHE");
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	char *dir = NULL;
	int len = -1;
	if (setting && *setting) {
		static int warned;
		if (setting[0] == '/')
			len = (dir = strdup(setting)) ? 0 : -1;
		else if (strcmp(setting, "0") && !warned++)
			gt_warnf("GITTRACE_DEBUG_CACHE is 0 or an absolute directory, not '%s': "
				 "debug files are not cached",
				 setting);
	} else if (xdg && xdg[0] == '/') {
		len = asprintf(&dir, "%s/gittrace/debug", xdg);
	} else if (home && home[0] == '/') {
		len = asprintf(&dir, "%s/.cache/gittrace/debug", home);
	}
	return len < 0 ? NULL : dir;
}

/* mkdir -p, private to the user; 0 when dir is a directory at the end. */
static int make_dirs(const char *dir)
{
	char *path = strdup(dir);
	if (!path)
		return -1;
	for (char *slash = strchr(path + 1, '/');; slash = strchr(slash + 1, '/')) {
		if (slash)
			*slash = '\0';
		if (mkdir(path, 0700) != 0 && errno != EEXIST)
			break;
		if (!slash)
			break;
		*slash = '/';
	}
	struct stat st;
	int ok = stat(dir, &st) == 0 && S_ISDIR(st.st_mode);
	free(path);
	return ok ? 0 : -1;
}

static int has_build_id(Elf *elf, const unsigned char *build_id, size_t build_id_len)
{
	const void *id;
	ssize_t id_len = dwelf_elf_gnu_build_id(elf, &id);
	return id_len > 0 && (size_t)id_len == build_id_len && !memcmp(id, build_id, build_id_len);
}

static int has_compressed_section(Elf *elf)
{
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn)) != NULL;) {
		GElf_Shdr shdr;
		if (gelf_getshdr(scn, &shdr) && (shdr.sh_flags & SHF_COMPRESSED))
			return 1;
	}
	return 0;
}

/*
 * Whether the file at fd is a whole copy for this build-id: an ELF file
 * with that build-id, each section's bytes inside the file (a copy cut
 * short, which a rename never leaves, would fail here), none compressed.
 */
static int copy_checks_out(int fd, const unsigned char *build_id, size_t build_id_len)
{
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
		return 0;
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf)
		return 0;
	int ok = has_build_id(elf, build_id, build_id_len);
	uint64_t size = (uint64_t)st.st_size;
	for (Elf_Scn *scn = NULL; ok && (scn = elf_nextscn(elf, scn)) != NULL;) {
		GElf_Shdr shdr;
		ok = gelf_getshdr(scn, &shdr) && !(shdr.sh_flags & SHF_COMPRESSED) &&
		     (shdr.sh_type == SHT_NOBITS ||
		      (shdr.sh_offset <= size && shdr.sh_size <= size - shdr.sh_offset));
	}
	elf_end(elf);
	return ok;
}

/* Copies the whole file at in to out. */
static int copy_bytes(int in, int out)
{
	enum { CHUNK = 1 << 16 };
	char *buf = malloc(CHUNK);
	int ok = buf != NULL;
	for (off_t at = 0; ok;) {
		ssize_t n = pread(in, buf, CHUNK, at);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			ok = n == 0;
			break;
		}
		for (ssize_t done = 0; ok && done < n;) {
			ssize_t w = write(out, buf + done, (size_t)(n - done));
			if (w > 0)
				done += w;
			else
				ok = w < 0 && errno == EINTR;
		}
		at += n;
	}
	free(buf);
	return ok;
}

/* Inflates every compressed section of the ELF file at fd, in place. */
static int inflate_sections(int fd)
{
	Elf *elf = elf_begin(fd, ELF_C_RDWR, NULL);
	if (!elf)
		return 0;
	int ok = 1;
	for (Elf_Scn *scn = NULL; ok && (scn = elf_nextscn(elf, scn)) != NULL;) {
		GElf_Shdr shdr;
		ok = gelf_getshdr(scn, &shdr) != NULL;
		if (ok && (shdr.sh_flags & SHF_COMPRESSED))
			ok = elf_compress(scn, 0, 0) >= 0; /* type 0: none */
	}
	/* libelf lays the file out again around the grown sections. */
	ok = ok && elf_update(elf, ELF_C_WRITE) >= 0;
	return elf_end(elf) == 0 && ok;
}

/* Removes the copies (and any copy's leftovers) unused for UNUSED_SECONDS. */
static void forget_unused(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	time_t now = time(NULL);
	for (struct dirent *e; (e = readdir(d)) != NULL;) {
		struct stat st;
		if (strstr(e->d_name, ".debug") &&
		    fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISREG(st.st_mode) && now - st.st_mtime > UNUSED_SECONDS)
			unlinkat(dirfd(d), e->d_name, 0);
	}
	closedir(d);
}

/*
 * Makes the copy of the file at fd as path, through a file of its own in
 * dir renamed into place: a report that stops half-way, or two reports at
 * once, never leave a partial copy under the name.
 */
static void make_copy(int fd, const char *dir, const char *hex, const char *path)
{
	char *tmp;
	if (asprintf(&tmp, "%s/.%s.debug.XXXXXX", dir, hex) < 0)
		return;
	int out = mkostemp(tmp, O_CLOEXEC);
	if (out >= 0) {
		if (!(copy_bytes(fd, out) && inflate_sections(out) && rename(tmp, path) == 0))
			unlink(tmp);
		close(out);
	}
	free(tmp);
}

/* The copy's path for this build-id (malloc'd) and, in *dir, the cache's;
 * NULL when the cache is off. */
static char *copy_path(const unsigned char *build_id, size_t build_id_len, char **dir, char *hex)
{
	if (!build_id || !build_id_len || build_id_len > MAX_BUILD_ID)
		return NULL;
	*dir = cache_dir();
	if (!*dir)
		return NULL;
	for (size_t i = 0; i < build_id_len; i++)
		snprintf(hex + 2 * i, 3, "%02x", build_id[i]);
	char *path;
	if (asprintf(&path, "%s/%s.debug", *dir, hex) >= 0)
		return path;
	free(*dir);
	return NULL;
}

int gt_debug_cache_open(const unsigned char *build_id, size_t build_id_len, char **name)
{
	char *dir, hex[2 * MAX_BUILD_ID + 1];
	char *path = copy_path(build_id, build_id_len, &dir, hex);
	if (!path)
		return -1;
	elf_version(EV_CURRENT);
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd >= 0 && copy_checks_out(fd, build_id, build_id_len)) {
		futimens(fd, NULL); /* used: not to be forgotten */
		free(*name);
		*name = path;
		path = NULL;
	} else if (fd >= 0) {
		close(fd); /* gt_debug_cache_add makes it again, renamed over it */
		fd = -1;
	}
	free(path);
	free(dir);
	return fd;
}

void gt_debug_cache_add(int fd, const unsigned char *build_id, size_t build_id_len)
{
	char *dir, hex[2 * MAX_BUILD_ID + 1];
	char *path = copy_path(build_id, build_id_len, &dir, hex);
	if (!path)
		return;
	elf_version(EV_CURRENT);
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	int worth_it =
		elf && has_build_id(elf, build_id, build_id_len) && has_compressed_section(elf);
	elf_end(elf);
	if (worth_it && make_dirs(dir) == 0) {
		forget_unused(dir);
		make_copy(fd, dir, hex, path);
	}
	free(path);
	free(dir);
}
