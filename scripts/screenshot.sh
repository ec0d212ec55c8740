#!/bin/sh
# screenshot.sh: regenerates docs/screenshot.png, the README's picture of a
# real HTML report: the window-bound example (`git log --raw` with tiny pack
# windows, examples/workloads/log-tiny-windows.sh) on the demo repository,
# traced with the preload, reported with --html and photographed by
# headless Chromium (Debian: apt-get install chromium).
#
# usage: sh scripts/screenshot.sh [BUILD_DIR]   (default: build)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
[ -d "$build" ] || {
	echo "screenshot.sh: '$build' is not a build directory: build first (sh scripts/build.sh)" >&2
	exit 1
}
build=$(cd "$build" && pwd)
preload=$build/preload/libgittrace.so
report=$build/analyzer/gittrace-report
out=$root/docs/screenshot.png

for f in "$preload" "$report"; do
	[ -e "$f" ] || {
		echo "screenshot.sh: '$f' is missing: build first (sh scripts/build.sh)" >&2
		exit 1
	}
done
browser=
for b in chromium chromium-browser google-chrome; do
	command -v "$b" >/dev/null 2>&1 && browser=$b && break
done
[ -n "$browser" ] || {
	echo "screenshot.sh: no Chromium found (Debian: apt-get install chromium)" >&2
	exit 1
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Neither the user's nor the system's git configuration may change the run.
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
cd "$tmp"
sh "$root/examples/make-demo-repo.sh" demo >/dev/null
cp "$root/examples/workloads/log-tiny-windows.sh" .
# Relative paths, so the page shows short command lines.
GITTRACE_OUTPUT=log-tiny-windows.zst LD_PRELOAD=$preload \
	sh log-tiny-windows.sh demo >/dev/null
"$report" --html report.html log-tiny-windows.zst
mkdir profile
"$browser" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
	--disable-background-networking --disable-component-update --disable-sync \
	--no-first-run --user-data-dir="$tmp/profile" --hide-scrollbars \
	--window-size=1280,2000 --screenshot="$out" "file://$tmp/report.html" 2>/dev/null
echo "screenshot.sh: wrote $out"
