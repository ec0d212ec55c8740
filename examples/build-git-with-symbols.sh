#!/bin/bash
# build-git-with-symbols.sh: builds git from source with debug info (-O2 -g)
# and installs it into a local prefix, so that gittrace's reports name git's
# own functions (do_compress, unpack_entry, ...) instead of git+0x148f1e, as
# they do for a distribution's stripped /usr/bin/git.
#
# usage: bash examples/build-git-with-symbols.sh [PREFIX [CACHE_DIR]]
#   PREFIX     where git is installed (default: $HOME/.local/gittrace-git)
#   CACHE_DIR  where the source is fetched and built (default:
#              ${XDG_CACHE_HOME:-$HOME/.cache}/gittrace/git-with-symbols; kept
#              apart from the upstream tests' cache so installing never
#              touches the tree they run)
#
# The source route is tests/upstream/build-git.sh's, reused as is: Debian's
# source package (`apt-get source git`, the same version as /usr/bin/git,
# with Debian's patches), adding a deb-src entry and dpkg-dev, zlib1g-dev,
# gcc and make when missing (as root or through sudo), then make in the
# unpacked tree without curl, expat, Tcl/Tk, gettext, Python or OpenSSL
# (so no http(s) remotes; local repositories and ssh work).
#
# Time, measured on a 2-CPU Debian 12 machine shared with other work (run
# under nice): the first run took 3 min 49 s (229 s, of which make 219 s;
# the rest fetching and unpacking the source and make install); a second
# run, the build cached, 2.6 s. It takes 230 MB in CACHE_DIR and 110 MB in
# PREFIX.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
prefix=${1:-$HOME/.local/gittrace-git}
cache=${2:-${XDG_CACHE_HOME:-$HOME/.cache}/gittrace/git-with-symbols}

mkdir -p "$prefix"
prefix=$(cd "$prefix" && pwd)
bash "$here/../tests/upstream/build-git.sh" "$cache" "$prefix" >/dev/null
[ -x "$prefix/bin/git" ] || {
	echo "build-git-with-symbols: no $prefix/bin/git after the install" >&2
	exit 1
}

cat <<MSG
git with symbols: $prefix/bin/git ($("$prefix/bin/git" --version))
Trace it by putting it first on PATH, e.g.:
  PATH=$prefix/bin:\$PATH gittrace -- git -C REPO repack -adf
  gittrace-report gittrace-*.zst
MSG
