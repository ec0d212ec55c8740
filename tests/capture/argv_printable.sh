# argv_printable.sh: a traced program's argv cannot forge a line of the
# text report or reach the terminal as escape sequences. The process table
# and section titles show control characters as '?'; the command the
# verdict suggests rerunning is quoted $'...' with \xHH, one printable line
# that bash reads back as the same argv; --folded makes them '_'. The HTML
# page shows them, and bytes that are not UTF-8 (a Latin-1 argument), as
# U+FFFD: the page is valid UTF-8 with no control characters.
#
# usage: bash argv_printable.sh PRELOAD REPORT WORKDIR
. "$(dirname "$0")/../lib.sh"

[ $# -eq 3 ] || fail "usage: argv_printable.sh PRELOAD REPORT WORKDIR"
preload=$1 report=$2 work=$3
fresh_dir "$work"

forged=$'x\n\nVERDICT: allocator-bound: forged'
escape=$'\e[31mRED\e[0m\a'
latin=$'caf\xe9'
GITTRACE_OUTPUT="$work/trace.zst" run_traced "$preload" /bin/echo "$forged" "$escape" "$latin" \
	>/dev/null
"$report" "$work/trace.zst" >"$work/report.txt"
"$report" --folded "$work/trace.zst" >"$work/folded.txt"
"$report" --html "$work/page.html" "$work/trace.zst"
for f in report.txt folded.txt page.html; do
	check_eq "$f: control characters besides line ends and tabs" 0 \
		"$(tr -d '\n\t' <"$work/$f" | LC_ALL=C grep -c '[[:cntrl:]]' || true)"
done
iconv -f UTF-8 -t UTF-8 "$work/page.html" >/dev/null 2>&1 || check_failed "page.html is not UTF-8"
check_grep "page.html: the Latin-1 byte as U+FFFD" 'caf&#xfffd;' "$work/page.html"
check_eq "report: forged verdict lines" 0 "$(grep -c '^VERDICT: allocator-bound: forged' "$work/report.txt" || true)"

# The quoted argv, back through bash: the same three words.
quoted=$("$report" --json "$work/trace.zst" |
	jq -r '[.verdict.suggestions[] | select(contains("--confirm -- "))][0] // empty |
		split("--confirm -- ")[1] | split(" (or ")[0]')
[ -n "$quoted" ] || fail "no command to rerun in the verdict's suggestions"
eval "set -- $quoted"
check_eq "argv back through bash: words" 4 "$#"
check_eq "argv back through bash: the forged line" "$forged" "$2"
check_eq "argv back through bash: the escapes" "$escape" "$3"
check_eq "argv back through bash: the Latin-1 word" "$latin" "$4"
finish
