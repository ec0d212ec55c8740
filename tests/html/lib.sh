# lib.sh: helpers for the HTML report tests (sourced, not run): headless
# Chromium to render a page, and checks on the DOM it leaves. Builds on
# tests/lib.sh (fail, check_eq, finish, demo_repo, git's pinned environment).
# The calling script sets preload, report, make_demo, workloads and work.
# shellcheck shell=bash disable=SC2154
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
use_git

# The browser, or exit 77 (CTest's skip) when none is installed. Debian
# names it chromium; scripts/install-deps.sh should install it.
browser=
for b in chromium chromium-browser google-chrome; do
	if command -v "$b" >/dev/null 2>&1; then
		browser=$b
		break
	fi
done
if [ -z "$browser" ]; then
	echo "SKIP: no Chromium found (Debian: apt-get install chromium); the HTML report is not rendered"
	exit 77
fi

# chrome OUTDIR ARGS...: headless Chromium with a throwaway profile, no
# network services, console messages on stderr (OUTDIR/chrome.err).
chrome() {
	local out=$1 profile
	shift
	profile=$(mktemp -d)
	"$browser" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
		--disable-background-networking --disable-component-update --disable-sync \
		--no-first-run --user-data-dir="$profile" --enable-logging=stderr --v=0 \
		--hide-scrollbars --window-size=1400,2600 "$@" 2>>"$out/chrome.err"
	local status=$?
	rm -rf "$profile"
	return $status
}

# quiet_chrome OUTDIR URL ARGS...: chrome on URL; fails on any console
# message (the page's script logs nothing of its own, so a message is an
# error or a warning).
quiet_chrome() {
	local dir=$1 url=$2
	shift 2
	: >"$dir/chrome.err"
	chrome "$dir" "$@" "$url" || fail "chromium failed on $url"
	if grep -E ':CONSOLE[(:]|Uncaught' "$dir/chrome.err" >"$dir/console.txt"; then
		fail "console messages on $url: $(head -3 "$dir/console.txt")"
	fi
	echo "ok: no console messages on $(basename "$url")"
}

# render PAGE OUT [FRAGMENT]: loads PAGE (with #FRAGMENT) and writes the
# DOM after its script ran to OUT.dom; fails on console messages or if the
# page's script says it failed.
render() {
	local page=$1 out=$2
	local url="file://$page${3:+#$3}"
	quiet_chrome "$(dirname "$out")" "$url" --dump-dom >"$out.dom"
	check_eq "script status of $(basename "$url")" ok \
		"$(grep -o 'id="gt-status" data-state="[a-z]*"' "$out.dom" | sed 's/.*data-state="//; s/"$//')"
}

# screenshot PAGE PNG: a 1400x2600 screenshot of PAGE, checked to be
# there and not blank (a blank page compresses to a few kB).
screenshot() {
	quiet_chrome "$(dirname "$2")" "file://$1" --screenshot="$2" >/dev/null
	[ -s "$2" ] && [ "$(stat -c %s "$2")" -gt 20000 ] || fail "screenshot $2 is missing or blank"
	echo "ok: screenshot $2"
}

# report_page NAME: the JSON report and the HTML page of $work/NAME.zst
# ($work/NAME.json, NAME.html), the page rendered (NAME.dom, render) and
# its screenshot (NAME.png), with the common checks.
report_page() {
	local w=$work/$1
	"$report" --json "$w.zst" >"$w.json" || fail "gittrace-report --json failed"
	"$report" --html "$w.html" "$w.zst" || fail "gittrace-report --html failed"
	render "$w.html" "$w"
	screenshot "$w.html" "$w.png"
	check_common "$w.json" "$w.dom"
}

# workload_page NAME SCALE WORKLOAD: examples/workloads/WORKLOAD.sh traced
# on a demo repository of SCALE ($work/NAME.zst; the workload's output in
# NAME.out), and its page (report_page).
workload_page() {
	local name=$1 scale=$2 workload=$3
	demo_repo "$make_demo" "$work/demo" "$scale"
	GITTRACE_OUTPUT=$work/$name.zst run_traced "$preload" sh "$workloads/$workload.sh" \
		"$work/demo" >"$work/$name.out" 2>&1 ||
		fail "the workload failed: $(tail -5 "$work/$name.out")"
	report_page "$name"
}

# html_text STRING: STRING as the DOM serializer writes text.
html_text() {
	printf '%s' "$1" | sed 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g'
}

# check_has WHAT DOM STRING: the DOM contains STRING (fixed string).
check_has() {
	if grep -qF -- "$3" "$2"; then
		echo "ok: $1"
	else
		check_failed "$1: '$3' not in $2"
	fi
}

# check_common JSON DOM: what every rendered report shows: the verdict's
# headline, every process's command line, the calls by function (malloc's
# count as --json sums it), a timeline chart per process
# with calls, and flame-graph frames; and that nothing in it would load
# from elsewhere.
check_common() {
	local json=$1 dom=$2 n
	if grep -Eo '(src|href)="[^"#]|@import|url\(' "$dom" >"$dom.external"; then
		check_failed "the page refers to other files: $(head -3 "$dom.external")"
	else
		echo "ok: self-contained"
	fi
	check_has "verdict headline" "$dom" "$(html_text "$(jq -r .verdict.headline "$json")")"
	check_has "verdict class" "$dom" "class=\"badge v-$(jq -r .verdict.class "$json")\""
	while IFS= read -r cmd; do
		check_has "process '$cmd'" "$dom" "$(html_text "$cmd")"
	done < <(jq -r '.processes[] | .argv | join(" ")' "$json")
	check_has "calls by function: malloc's row" "$dom" \
		"<tr><td>malloc</td><td class=\"num\">$(jq .totals.functions.malloc.calls "$json")</td>"
	n=$(jq '[.processes[] | select(.events > 0)] | length' "$json")
	# Four heaviest timelines are open and drawn; the others draw when opened.
	[ "$n" -gt 4 ] && n=4
	check_eq "timeline charts drawn" "$n" "$(grep -o '<svg class="tl-svg"' "$dom" | wc -l)"
	check_eq "a live-heap series per drawn timeline" "$n" \
		"$(grep -o 'data-series="heap"' "$dom" | wc -l)"
	[ "$(grep -o 'class="gt-frame' "$dom" | wc -l)" -gt 3 ] ||
		fail "no flame graph frames in $dom"
	echo "ok: flame graph frames"
}

# series_total DOM SERIES: the sum of data-total over the series' paths.
series_total() {
	grep -o "data-series=\"$2\" data-total=\"[0-9]*\"" "$1" |
		sed 's/.*data-total="//; s/"$//' | awk '{ s += $1 } END { print s + 0 }'
}

# frames DOM: one line per flame-graph frame: "depth width name".
frames() {
	grep -o '<g class="gt-frame[^"]*" data-name="[^"]*" data-depth="[0-9]*" data-value="[0-9]*" data-w="[0-9.]*"' "$1" |
		sed 's/.*data-name="\([^"]*\)" data-depth="\([0-9]*\)" data-value="[0-9]*" data-w="\([0-9.]*\)"/\2 \3 \1/'
}
