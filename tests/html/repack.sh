# repack.sh: `git repack -adf` on the demo repository at its default scale
# (examples/workloads/repack-default.sh), the size target of the HTML
# report: the page stays under 5 MB, and renders with the common checks
# (three processes: repack, its fork, pack-objects).
#
# usage: bash repack.sh PRELOAD REPORT MAKE_DEMO WORKLOADS_DIR WORKDIR
. "$(dirname "$0")/lib.sh"

[ $# -eq 5 ] || fail "usage: repack.sh PRELOAD REPORT MAKE_DEMO WORKLOADS_DIR WORKDIR"
preload=$1 report=$2 make_demo=$3 workloads=$4 work=$5
fresh_dir "$work"
workload_page repack 100 repack-default

size=$(stat -c %s "$work/repack.html")
limit=$((5 * 1024 * 1024))
[ "$size" -lt "$limit" ] || fail "the page is $size bytes, over $limit"
echo "ok: the page is $size bytes (limit $limit); the trace $(stat -c %s "$work/repack.zst")"
check_has "pack-objects in the trace" "$work/repack.json" "pack-objects"
finish
