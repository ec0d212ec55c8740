#!/bin/sh
# The main job, from a fresh Debian 12 machine (as root): install what is
# needed, build, make a demo repository, and trace `git repack -adf` on it
# (the repack parent and its pack-objects child), printing the report.
#
# usage: sh scripts/demo.sh [DIR]   (DIR: where the demo repository goes,
#                                    default /tmp/gittrace-demo)
set -e
cd "$(dirname "$0")/.."
top=$PWD
demo=${1:-/tmp/gittrace-demo}

sh scripts/install-deps.sh
sh scripts/build.sh build >/dev/null

# The template is made once; every run repacks a fresh copy of it.
[ -d "$demo/template" ] || {
	echo "making the demo repository (examples/make-demo-repo.sh) in $demo/template" >&2
	mkdir -p "$demo"
	sh examples/make-demo-repo.sh "$demo/template"
}
rm -rf "$demo/repo"
cp -a "$demo/template" "$demo/repo"

echo "tracing: git repack -adf (trace: $demo/repack.zst)" >&2
"$top/build/launcher/gittrace" --stdout -o "$demo/repack.zst" -- git -C "$demo/repo" repack -adf
