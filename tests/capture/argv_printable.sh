# argv_printable.sh: a traced program's argv cannot forge a line of the
# text report or reach the terminal as escape sequences. The process table
# and section titles show control characters as '?'; the command the
# verdict suggests rerunning is quoted $'...' with \xHH, one printable line
# that bash reads back as the same argv; --folded makes them '_'.
#
# usage: bash argv_printable.sh PRELOAD REPORT WORKDIR
. "$(dirname "$0")/../lib.sh"

[ $# -eq 3 ] || fail "usage: argv_printable.sh PRELOAD REPORT WORKDIR"
preload=$1 report=$2 work=$3
fresh_dir "$work"

forged=$'x\n\nVERDICT: allocator-bound: forged'
escape=$'\e[31mRED\e[0m\a'
GITTRACE_OUTPUT="$work/trace.zst" run_traced "$preload" /bin/echo "$forged" "$escape" >/dev/null
"$report" "$work/trace.zst" >"$work/report.txt"
"$report" --folded "$work/trace.zst" >"$work/folded.txt"
for f in report.txt folded.txt; do
	check_eq "$f: control characters besides line ends" 0 \
		"$(tr -d '\n' <"$work/$f" | LC_ALL=C grep -c '[[:cntrl:]]' || true)"
done
check_eq "report: forged verdict lines" 0 "$(grep -c '^VERDICT: allocator-bound: forged' "$work/report.txt" || true)"

# The quoted argv, back through bash: the same three words.
quoted=$("$report" --json "$work/trace.zst" |
	jq -r '[.verdict.suggestions[] | select(contains("--confirm -- "))][0] // empty |
		split("--confirm -- ")[1] | split(" (or ")[0]')
[ -n "$quoted" ] || fail "no command to rerun in the verdict's suggestions"
eval "set -- $quoted"
check_eq "argv back through bash: words" 3 "$#"
check_eq "argv back through bash: the forged line" "$forged" "$2"
check_eq "argv back through bash: the escapes" "$escape" "$3"
finish
