# churn.sh: the allocator-bound example (examples/alloc-churn.c) as an HTML
# page in headless Chromium: the common checks, and the flame graph puts
# the churning function, new_node (it allocates every replacement node of
# the pool), widest under main, weighted by allocations and by bytes; a
# search and a zoom from the URL highlight its frame and widen main; the
# page's clicks, weights and hovering work. A page with a broken data block
# must fail the same checks.
#
# usage: bash churn.sh PRELOAD REPORT ALLOC_CHURN WORKDIR
. "$(dirname "$0")/lib.sh"

[ $# -eq 4 ] || fail "usage: churn.sh PRELOAD REPORT ALLOC_CHURN WORKDIR"
preload=$1 report=$2 churn=$3 work=$4
fresh_dir "$work"
GITTRACE_OUTPUT=$work/churn.zst run_traced "$preload" "$churn" 200000 >/dev/null ||
	fail "alloc-churn failed"
report_page churn

# The tracer's own frame (its wrapper of main) is in every stack: the
# folded stacks and the flame graph leave it out.
"$report" --folded "$work/churn.zst" >"$work/churn.folded" || fail "--folded failed"
check_eq "folded: no stack has the tracer's frames" 0 \
	"$(grep -c 'libgittrace\|main_wrapper' "$work/churn.folded")"
# libc's frame is named from its debug info (libc6-dbg), else by offset.
check_eq "folded: main right below libc's start" 1 \
	"$(grep -Ec ';(__libc_start_call_main|libc\.so\.6\+0x[0-9a-f]+);main;' "$work/churn.folded" |
		awk '{ print ($1 > 0) }')"

# widest_under DOM NAME: the widest frame one level below the first NAME.
widest_under() {
	frames "$1" | awk -v name="$2" '
		$3 == name && depth == "" { depth = $1 + 1 }
		{ f[NR] = $0 }
		END {
			for (i = 1; i <= NR; i++) {
				split(f[i], a, " ")
				if (a[1] == depth && a[2] + 0 > w) { w = a[2] + 0; n = a[3] }
			}
			print n
		}'
}
check_eq "widest frame under main, by allocations" new_node "$(widest_under "$work/churn.dom" main)"

# Search and zoom from the URL: zoomed to main, main fills the width, its
# callers stay above it dimmed, and the search marks new_node.
render "$work/churn.html" "$work/churn-zoom" "search=new_node&zoom=main"
check_has "search highlights new_node" "$work/churn-zoom.dom" \
	'<g class="gt-frame match" data-name="new_node"'
check_has "search reports the matched share" "$work/churn-zoom.dom" 'id="gt-match">matched: '
check_has "the zoomed frame's callers are dimmed" "$work/churn-zoom.dom" \
	'<g class="gt-frame dim" data-name="_start"'
width=$(grep -o '<svg width="[0-9]*"' "$work/churn-zoom.dom" | tail -1 | sed 's/[^0-9]//g')
check_eq "zoomed main fills the width" "$width.0" \
	"$(frames "$work/churn-zoom.dom" | awk '$3 == "main" && !seen { print $2; seen = 1 }')"

# Clicks, weight changes and hovering, through the page's own handlers
# (probe.js, added to a copy of the page): sorting by bytes orders the
# table both ways, a click on new_node zooms it to the full width, by
# temporary allocations main's own short-lived blocks leave nothing under
# it (new_node's nodes all live on), by bytes new_node is widest again,
# and a timeline shows its tooltip.
{
	sed '/^<\/body><\/html>$/d' "$work/churn.html"
	printf '<script>\n'
	sed 's/FRAME/new_node/g' "$(dirname "$0")/probe.js"
	printf '</script>\n</body></html>\n'
} >"$work/probe.html"
render "$work/probe.html" "$work/probe"
probe() {
	grep -o "<div id=\"gt-probe\"[^>]*" "$work/probe.dom" | grep -o "data-$1=\"[^\"]*\"" |
		sed 's/^[^"]*"//; s/"$//'
}
check_eq "sites sorted by bytes, descending" descending "$(probe desc)"
check_eq "sites sorted by bytes, ascending" ascending "$(probe asc)"
check_eq "a click on new_node zooms it to the full width" "$(probe full).0" "$(probe zoom)"
check_eq "widest frame under main, by temporary" none "$(probe temporary)"
check_eq "widest frame under main, by bytes" new_node "$(probe bytes)"
check_eq "hovering a timeline shows the live heap" "live heap bytes" "$(probe tip | sed 's/:.*//')"

# The checks themselves: a page whose data cannot be parsed must fail both
# the console check and the script status (as a broken script would).
sed 's/"kinds":/"kinds"/' "$work/churn.html" >"$work/broken.html"
if (render "$work/broken.html" "$work/broken") >"$work/broken.log" 2>&1; then
	fail "a broken page passed the checks: $(cat "$work/broken.log")"
fi
grep -q "Uncaught" "$work/broken.log" || fail "a broken page failed for another reason: $(cat "$work/broken.log")"
echo "ok: a broken page fails the checks"
finish
