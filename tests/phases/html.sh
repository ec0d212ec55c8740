# html.sh: the HTML page of make_trace's trace with the synthetic trace2
# stream (lib.sh) draws pid 100's phases as bands above its timeline: four
# spans (setup, maps, inner-empty, maps again), and no console message.
# Skipped (77) without Chromium, as the html tests are.
#
# usage: bash html.sh REPORT MAKE_TRACE WORKDIR
. "$(dirname "$0")/../html/lib.sh"
. "$(dirname "$0")/lib.sh"
[ $# -eq 3 ] || fail "usage: html.sh REPORT MAKE_TRACE WORKDIR"
report=$1 make_trace=$2 work=$3
fresh_dir "$work"
"$make_trace" "$work/t.zst" || fail "make_trace failed"
synthetic_trace2 "$work/t2.json"
"$report" --html "$work/t.html" --trace2 "$work/t2.json" "$work/t.zst" ||
	fail "gittrace-report --html --trace2 failed"
render "$work/t.html" "$work/t"
check_eq "pid 100: four phase bands" 4 \
	"$(grep -o '<svg [^>]*data-pid="100".*</svg>' "$work/t.dom" | grep -o 'class="gt-phase"' | wc -l)"
check_eq "the strip's title" 1 "$(grep -o '>phases</text>' "$work/t.dom" | wc -l)"
finish
