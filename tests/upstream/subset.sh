#!/bin/bash
# subset.sh: the CTest case upstream.subset. Builds git from source once
# (build-git.sh, cached outside the build tree) and runs the given scripts of
# git's test suite plain and traced (run.sh), reading every trace back with
# gittrace-report.
#
# usage: bash subset.sh PRELOAD REPORT OUTDIR SCRIPT...
# Environment: GITTRACE_UPSTREAM_CACHE, build-git.sh's CACHE_DIR (default:
# its own). Exits 77 (CTest: skipped) when git's source cannot be fetched,
# e.g. offline; otherwise run.sh's status.
set -uo pipefail
here=$(dirname "$0")

[ $# -ge 4 ] || {
	echo "usage: subset.sh PRELOAD REPORT OUTDIR SCRIPT..." >&2
	exit 2
}
preload=$1 report=$2 outdir=$3
shift 3

git_dir=$(bash "$here/build-git.sh" ${GITTRACE_UPSTREAM_CACHE:+"$GITTRACE_UPSTREAM_CACHE"} | tail -1)
rc=$?
[ "$rc" -ne 77 ] || {
	echo "SKIP: git's source package is unavailable" >&2
	exit 77
}
[ "$rc" -eq 0 ] || exit "$rc"

rm -rf "$outdir"
UPSTREAM_REPORT=$report exec bash "$here/run.sh" "$preload" "$git_dir" "$outdir" "$@"
