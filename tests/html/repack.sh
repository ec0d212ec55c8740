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
demo_repo "$make_demo" "$work/demo" 100
GITTRACE_OUTPUT=$work/repack.zst run_traced "$preload" sh "$workloads/repack-default.sh" \
	"$work/demo" >/dev/null 2>&1 || fail "the workload failed"
"$report" --json "$work/repack.zst" >"$work/repack.json" || fail "gittrace-report --json failed"
"$report" --html "$work/repack.html" "$work/repack.zst" || fail "gittrace-report --html failed"

size=$(stat -c %s "$work/repack.html")
limit=$((5 * 1024 * 1024))
[ "$size" -lt "$limit" ] || fail "the page is $size bytes, over $limit"
echo "ok: the page is $size bytes (limit $limit); the trace $(stat -c %s "$work/repack.zst")"
check_has "pack-objects in the trace" "$work/repack.json" "pack-objects"
render "$work/repack.html" "$work/repack"
screenshot "$work/repack.html" "$work/repack.png"
check_common "$work/repack.json" "$work/repack.dom"
finish
