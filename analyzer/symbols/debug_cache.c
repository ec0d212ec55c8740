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
 * Whether dir may hold copies that libdw reads: the user's own and
 * writable by no one else, or not there yet (make_dirs makes it so).
 */
static int dir_is_private(const char *dir)
{
	struct stat st;
	if (stat(dir, &st) != 0)
		return errno == ENOENT;
	return S_ISDIR(st.st_mode) && st.st_uid == geteuid() && !(st.st_mode & (S_IWGRP | S_IWOTH));
}

/* The cache's directory, NULL when off: decided once (gt_debug_cache_setup). */
static char *cache_dir;
static int cache_dir_decided;

void gt_debug_cache_setup(void)
{
	if (cache_dir_decided)
		return;
	cache_dir_decided = 1;
	const char *setting = getenv("GITTRACE_DEBUG_CACHE");
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	if (setting && *setting) {
		if (setting[0] == '/')
			cache_dir = strdup(setting);
		else if (strcmp(setting, "0"))
			gt_warnf("GITTRACE_DEBUG_CACHE is 0 or an absolute directory, not '%s': "
				 "debug files are not cached",
				 setting);
	} else if (xdg && xdg[0] == '/') {
		/* A relative XDG_CACHE_HOME is ignored, as the XDG Base
		 * Directory spec says. */
		if (asprintf(&cache_dir, "%s/gittrace/debug", xdg) < 0)
			cache_dir = NULL;
	} else if (home && home[0] == '/') {
		if (asprintf(&cache_dir, "%s/.cache/gittrace/debug", home) < 0)
			cache_dir = NULL;
	}
	if (cache_dir && !dir_is_private(cache_dir)) {
		gt_warnf("%s is no directory of the user's own that only the user may write "
			 "to: debug files are not cached",
			 cache_dir);
		free(cache_dir);
		cache_dir = NULL;
	}
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

/*
 * Whether name is one the cache gives a file: HEX.debug, a copy, or
 * .HEX.debug.XXXXXX, one being made (left behind if its report died).
 */
static int is_cache_name(const char *name)
{
	int making = name[0] == '.';
	size_t hex = strspn(name + making, "0123456789abcdef");
	const char *rest = name + making + hex;
	if (hex < 2 || strncmp(rest, ".debug", 6))
		return 0;
	return making ? strlen(rest + 6) == 7 && rest[6] == '.' : rest[6] == '\0';
}

/* Removes the copies (and copies half made) unused for UNUSED_SECONDS. */
static void forget_unused(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	time_t now = time(NULL);
	for (struct dirent *e; (e = readdir(d)) != NULL;) {
		struct stat st;
		if (is_cache_name(e->d_name) &&
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

/* The copy's path for this build-id (malloc'd), its hex in hex; NULL
 * when the cache is off. */
static char *copy_path(const unsigned char *build_id, size_t build_id_len, char *hex)
{
	if (!build_id || !build_id_len || build_id_len > MAX_BUILD_ID || !cache_dir ||
	    !dir_is_private(cache_dir))
		return NULL;
	for (size_t i = 0; i < build_id_len; i++)
		snprintf(hex + 2 * i, 3, "%02x", build_id[i]);
	char *path;
	return asprintf(&path, "%s/%s.debug", cache_dir, hex) < 0 ? NULL : path;
}

/* The checked copy at path, its mtime bumped; -1 if there is none. */
static int open_copy(const char *path, const unsigned char *build_id, size_t build_id_len)
{
	/* O_NONBLOCK: a FIFO put there must not hang the report. */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd >= 0 && copy_checks_out(fd, build_id, build_id_len)) {
		futimens(fd, NULL); /* used: not to be forgotten */
		return fd;
	}
	if (fd >= 0)
		close(fd); /* made again, renamed over it */
	return -1;
}

int gt_debug_cache_open(const unsigned char *build_id, size_t build_id_len, const char *debug_root,
			char **name)
{
	char hex[2 * MAX_BUILD_ID + 1];
	char *path = copy_path(build_id, build_id_len, hex);
	if (!path)
		return -1;
	elf_version(EV_CURRENT);
	int fd = open_copy(path, build_id, build_id_len);
	char *installed;
	if (fd < 0 && build_id_len > 1 &&
	    asprintf(&installed, "%s/.build-id/%.2s/%s.debug", debug_root, hex, hex + 2) >= 0) {
		int in = open(installed, O_RDONLY | O_CLOEXEC);
		free(installed);
		if (in >= 0) {
			gt_debug_cache_add(in, build_id, build_id_len);
			close(in);
			fd = open_copy(path, build_id, build_id_len);
		}
	}
	if (fd >= 0) {
		free(*name);
		*name = path;
	} else {
		free(path);
	}
	return fd;
}

void gt_debug_cache_add(int fd, const unsigned char *build_id, size_t build_id_len)
{
	char hex[2 * MAX_BUILD_ID + 1];
	char *path = copy_path(build_id, build_id_len, hex);
	if (!path)
		return;
	/* Something else by that name (a directory) would fail the rename
	 * after all the work, in every report. */
	struct stat st;
	int in_the_way = lstat(path, &st) == 0 && !S_ISREG(st.st_mode);
	elf_version(EV_CURRENT);
	Elf *elf = in_the_way ? NULL : elf_begin(fd, ELF_C_READ_MMAP, NULL);
	int worth_it =
		elf && has_build_id(elf, build_id, build_id_len) && has_compressed_section(elf);
	elf_end(elf);
	if (worth_it && make_dirs(cache_dir) == 0) {
		forget_unused(cache_dir);
		make_copy(fd, cache_dir, hex, path);
	}
	free(path);
}
