# caller.sh PROG PRELOAD REPORT WORK: the report names the traced program's
# own caller beside a site in a library or in a generic helper, and only
# there (text, JSON and HTML), on a trace of caller_prog (see caller_prog.c);
# rows of one function and caller name where their stacks part (text and
# HTML); the stripped-binary note says how to get names.
. "$(dirname "$0")/../lib.sh"
prog=$1
preload=$2
report=$3
work=$4
fresh_dir "$work"

GITTRACE_OUTPUT=$work/trace.zst run_traced "$preload" "$prog" || fail "caller_prog failed"
"$report" --json --top 0 "$work/trace.zst" >"$work/report.json" || fail "gittrace-report --json failed"
"$report" --top 0 "$work/trace.zst" >"$work/report.txt" || fail "gittrace-report failed"
"$report" --html "$work/report.html" "$work/trace.zst" >/dev/null || fail "gittrace-report --html failed"
"$report" --folded "$work/trace.zst" >"$work/report.folded" || fail "gittrace-report --folded failed"

# site_of FILTER: "function<caller" of the program's sites matching the jq FILTER.
site_of() {
	jq -r --arg exe "$(basename "$prog")" \
		".processes[0].sites[] | select($1) | \"\(.function)<\(.caller.function // \"-\")\"" \
		"$work/report.json" | sort -u
}

# zlib's sites: the innermost frame is zlib's (named from .dynsym, or
# libz.so.1+0x.. for its static zcalloc); the caller is the program's.
check_eq "zlib sites name compress_one" "compress_one" \
	"$(site_of '.frames[0].module == "libz.so.1"' | cut -d'<' -f2 | sort -u)"
check_eq "the caller frame lies in the program" "true" \
	"$(jq -r '.processes[0].sites[] | select(.frames[0].module == "libz.so.1")
		| .frames[.caller.frame].in_program' "$work/report.json" | sort -u)"
check_eq "a generic helper's site names its caller" "strbuf_dup<make_label" \
	"$(site_of '.function == "strbuf_dup"')"
check_eq "the program's own site has no caller" "plain_alloc<-" \
	"$(site_of '.function == "plain_alloc"')"
check_eq "folded: the wrapper kept beneath the site" 1 \
	"$(grep -c ';main;plain_alloc;xmalloc 1$' "$work/report.folded")"
check_grep "text: caller beside the site" "← compress_one \(caller_prog\.c:[0-9]+\)" \
	"$work/report.txt"
# A row whose label does not fit goes on beneath it, a frame a line: joined.
awk '/^ +← / { sub(/^ +/, " "); row = row $0; next }
	NR > 1 { print row } { row = $0 } END { print row }' "$work/report.txt" >"$work/rows.txt"
# strbuf_dup ← make_label has two stacks: each row names where they part.
check_grep "text: helper and caller, reached from main" \
	"  strbuf_dup ← make_label ← main \(caller_prog\.c:[0-9]+\)$" "$work/rows.txt"
check_grep "text: helper and caller, reached from label_again" \
	"  strbuf_dup ← make_label ← label_again \(caller_prog\.c:[0-9]+\)$" "$work/rows.txt"
check_grep "text: plain site alone" "  plain_alloc \(caller_prog\.c:[0-9]+\)$" "$work/report.txt"
check_grep "HTML: caller column" ">← compress_one</td>" "$work/report.html"
check_grep "HTML: where two rows of one function part" ">← make_label ← label_again</td>" \
	"$work/report.html"

# Every block live at the heap's peak belongs to one site: over all sites
# (--top 0) their bytes at the peak add up to it, and the text lists them.
check_eq "sites' bytes at the peak add up to the heap's peak" true \
	"$(jq '.processes[0] | ([.sites[].at_peak_bytes] | add) == .heap.peak_bytes' \
		"$work/report.json")"
check_grep "text: the sites at the peak" "top sites by bytes live at the heap's peak" \
	"$work/report.txt"
check_grep "HTML: the sites' bytes at the peak" ">at peak</th>" "$work/report.html"

# The table by caller in the program: strbuf_dup ← make_label is one row
# however many stacks reach it (two: from main, and through label_again).
row='.processes[0].by_caller[] | select(.function == "strbuf_dup")'
check_eq "by caller: one row for the helper" 1 "$(jq "[$row] | length" "$work/report.json")"
check_eq "by caller: its caller" make_label "$(jq -r "$row | .caller" "$work/report.json")"
check_eq "by caller: its stacks" 2 "$(jq "$row | .stacks | length" "$work/report.json")"
check_eq "by caller: its allocations add up" "21 21" \
	"$(jq -r "$row | \"\(.allocations) \([.stacks[].allocations] | add)\"" "$work/report.json")"
check_eq "by caller: one stack goes through label_again" 1 \
	"$(jq "[$row | .stacks[] | select([.frames[].function] | index(\"label_again\"))] | length" \
		"$work/report.json")"
check_eq "by caller: its stacks counted" 2 "$(jq "$row | .stacks_total" "$work/report.json")"
# --top caps each row's stacks as it caps the rows; stacks_total still counts all.
"$report" --json --top 1 "$work/trace.zst" >"$work/top1.json" ||
	fail "gittrace-report --json --top 1 failed"
top_row='.processes[0].by_caller | "\(length) \(.[0] | "\(.stacks | length) \(.stacks_total)")"'
check_eq "by caller, --top 1: the helper's row, one of its two stacks" "1 1 2" \
	"$(jq -r "$top_row" "$work/top1.json")"
check_eq "by caller, --top 1: the heavier stack" 20 \
	"$(jq '.processes[0].by_caller[0].stacks[0].allocations' "$work/top1.json")"
check_grep "text: the row, its stacks counted" " 2  strbuf_dup ← make_label$" "$work/report.txt"
check_grep "text: a stack beneath it" "  strbuf_dup ← make_label ← label_again ← " \
	"$work/report.txt"

# zlib is stripped (Debian's is): the note names it and the ways to names.
if [ "$(jq -r '[.trace.stripped_modules[] | select(endswith("/libz.so.1"))] | length' \
	"$work/report.json")" = 1 ]; then
	check_grep "text: the note gives debuginfod" "DEBUGINFOD_URLS" "$work/report.txt"
	check_grep "text: the note gives the build script" "examples/build-git-with-symbols.sh" \
		"$work/report.txt"
	check_grep "HTML: the note gives debuginfod" "Stripped: .*DEBUGINFOD_URLS" "$work/report.html"
else
	echo "skip: libz.so.1 is not stripped here, no note to check"
fi
finish
