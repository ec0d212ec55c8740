#!/bin/bash
# build-git.sh: builds git from Debian's source package once, outside the
# tree, so that git's own test suite (its t/ directory) can be run plain and
# under the preload (run.sh). The source is the one Debian ships, so the
# tests exercise the same git version as /usr/bin/git (2.39.5 on bookworm).
#
# usage: bash build-git.sh [CACHE_DIR [PREFIX]]
#   CACHE_DIR defaults to ${XDG_CACHE_HOME:-$HOME/.cache}/gittrace/upstream.
#   PREFIX, when given, also installs the built git there (make install with
#   the same flags: only what bakes in the prefix is rebuilt). For
#   examples/build-git-with-symbols.sh, which uses a cache of its own.
# On success the last line on stdout is the built tree (GIT_BUILD_DIR for
# run.sh); everything else goes to stderr. A second call finds the stamp
# and only prints that line. Exits 77 when the source package cannot be
# fetched (apt-get update or apt-get source failed, e.g. offline), 1 on any
# other failure.
#
# What it needs, and does when missing (as root, or through sudo):
#   - a deb-src entry, from the first deb entry apt has: with the deb822
#     /etc/apt/sources.list.d/debian.sources (Debian's images), its first
#     "Types: deb" stanza copied as gittrace-src.sources; else the first
#     one-line "deb" line of sources.list (debootstrap writes no deb-src
#     lines) copied as gittrace-src.list;
#   - dpkg-dev (apt-get source calls dpkg-source), zlib1g-dev, gcc, make.
# Only make runs in the unpacked tree, not Debian's build flow (debian/rules):
# the tests run from the build tree through t/../bin-wrappers, no install.
set -euo pipefail
export LC_ALL=C

cache=${1:-${XDG_CACHE_HOME:-$HOME/.cache}/gittrace/upstream}
prefix=${2:-}
# The features the tests do not need are left out so the build needs nothing
# beyond zlib; tests that need them are skipped by their own prerequisites,
# the same way in plain and traced runs. Changing this line rebuilds.
make_flags=(-j"$(nproc)" "CFLAGS=-O2 -g" NO_CURL=1 NO_EXPAT=1 NO_TCLTK=1
	NO_GETTEXT=1 NO_PYTHON=1 NO_OPENSSL=1 NO_INSTALL_HARDLINKS=1)

log() { echo "build-git: $*" >&2; }
fail() {
	echo "build-git: $*" >&2
	exit 1
}
unavailable() {
	echo "build-git: $*" >&2
	exit 77
}

# as_root CMD...: CMD as root (directly, or through sudo for a normal user).
as_root() {
	if [ "$(id -u)" -eq 0 ]; then
		"$@"
	elif command -v sudo >/dev/null; then
		sudo "$@"
	else
		fail "need root for: $*"
	fi
}

mkdir -p "$cache"
cache=$(cd "$cache" && pwd)
stamp=$cache/built.stamp
want="${make_flags[*]}"

# One build at a time: parallel CTest runs or two users of the same cache
# wait here for the first one instead of unpacking over it.
exec 9>"$cache/lock"
flock 9

# install_to TREE: make install into $prefix, when one was asked for.
install_to() {
	[ -n "$prefix" ] || return 0
	log "installing into $prefix"
	make -C "$1" "${make_flags[@]}" prefix="$prefix" install >>"$cache/build.log" 2>&1 ||
		fail "make install failed, see $cache/build.log: $(tail -5 "$cache/build.log")"
}

if [ -f "$stamp" ] && [ "$(sed -n 2p "$stamp")" = "$want" ] &&
	[ -x "$(sed -n 1p "$stamp")/t/helper/test-tool" ]; then
	install_to "$(sed -n 1p "$stamp")"
	sed -n 1p "$stamp"
	exit 0
fi
rm -f "$stamp"

# has_deb_src: whether apt already knows a deb-src entry (one-line or deb822).
has_deb_src() {
	grep -qsE '^[[:space:]]*deb-src[[:space:]]' /etc/apt/sources.list \
		/etc/apt/sources.list.d/*.list && return 0
	grep -qsiE '^Types:.*deb-src' /etc/apt/sources.list.d/*.sources
}

# add_source FILE TEXT: writes TEXT as apt source FILE (in sources.list.d).
add_source() {
	log "adding /etc/apt/sources.list.d/$1"
	printf '# Added by gittrace tests/upstream/build-git.sh: git source for its test suite.\n%s\n' \
		"$2" | as_root tee "/etc/apt/sources.list.d/$1" >/dev/null
}

if ! has_deb_src; then
	debian=/etc/apt/sources.list.d/debian.sources
	if [ -r "$debian" ]; then
		# The first stanza of debian.sources (up to its first blank line),
		# with Types: deb turned into deb-src and comments dropped.
		src=$(awk '/^[[:space:]]*$/ { if (n) exit; next }
			/^#/ { next }
			/^Types:/ { print "Types: deb-src"; n++; next }
			{ print; n++ }' "$debian")
		echo "$src" | grep -q '^URIs:' || fail "no URIs: in the first entry of $debian"
		add_source gittrace-src.sources "$src"
	else
		# The first one-line deb entry, as deb-src (its [options] kept).
		src=$({ grep -hsE '^[[:space:]]*deb[[:space:]]' /etc/apt/sources.list \
			/etc/apt/sources.list.d/*.list || true; } |
			head -n 1 | sed -E 's/^[[:space:]]*deb[[:space:]]+/deb-src /')
		[ -n "$src" ] || fail "apt has no deb entry to copy a deb-src entry from"
		add_source gittrace-src.list "$src"
	fi
	as_root apt-get update -qq >&2 || unavailable "apt-get update failed"
fi

missing=()
for pkg in dpkg-dev zlib1g-dev gcc make; do
	dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
	log "installing ${missing[*]}"
	as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends "${missing[@]}" >&2
fi

# The source: git_<version>.dsc and its tarballs, unpacked (with Debian's
# patches, as dpkg-source applies them) into git-<upstream version>/.
src_dir=$(find "$cache" -maxdepth 1 -type d -name 'git-[0-9]*' | sort | tail -1)
if [ -z "$src_dir" ] || [ ! -f "$src_dir/t/test-lib.sh" ]; then
	log "fetching the git source package into $cache"
	rm -rf "$cache"/git-[0-9]* "$cache"/git_*
	# As root, apt-get source warns that it downloads unsandboxed; harmless.
	(cd "$cache" && apt-get source -qq git >&2) || unavailable "apt-get source git failed"
	src_dir=$(find "$cache" -maxdepth 1 -type d -name 'git-[0-9]*' | sort | tail -1)
	if [ -z "$src_dir" ] || [ ! -f "$src_dir/t/test-lib.sh" ]; then
		fail "apt-get source git left no git-*/t/test-lib.sh in $cache"
	fi
fi

log "building $src_dir: make ${make_flags[*]}"
start=$(date +%s)
make -C "$src_dir" "${make_flags[@]}" all >"$cache/build.log" 2>&1 ||
	fail "make failed, see $cache/build.log: $(tail -5 "$cache/build.log")"
if [ ! -x "$src_dir/t/helper/test-tool" ] || [ ! -x "$src_dir/bin-wrappers/git" ]; then
	fail "make succeeded but left no t/helper/test-tool or bin-wrappers/git"
fi
log "built in $(($(date +%s) - start)) s"
install_to "$src_dir"

printf '%s\n%s\n' "$src_dir" "$want" >"$stamp"
echo "$src_dir"
