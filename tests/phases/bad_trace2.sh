# bad_trace2.sh: a trace2 file that is cut, from another run, empty,
# damaged in the middle, not JSON, or JSON but not trace2 gets one warning
# line; the report is still printed (exit 0, the same processes); a
# missing file is an error (exit 1). The good file gives phases, so the
# checks can fail.
#
# usage: bash bad_trace2.sh PRELOAD REPORT MAKE_DEMO WORKDIR
. "$(dirname "$0")/../lib.sh"
use_git
[ $# -eq 4 ] || fail "usage: bad_trace2.sh PRELOAD REPORT MAKE_DEMO WORKDIR"
preload=$1 report=$2 make_demo=$3 work=$4
fresh_dir "$work"
demo_repo "$make_demo" "$work/demo" 2

GITTRACE_OUTPUT=$work/t.zst GIT_TRACE2_EVENT=$work/good.json run_traced "$preload" \
	"$GIT" -C "$work/demo" rev-list --all >/dev/null || fail "the traced run failed"
# Another run of the same command: other pids, other times.
GIT_TRACE2_EVENT=$work/foreign.json "$GIT" -C "$work/demo" rev-list --all >/dev/null ||
	fail "the second run failed"
"$report" --json "$work/t.zst" >"$work/plain.json" || fail "the plain report failed"
processes=$(jq '.processes | length' "$work/plain.json")

size=$(wc -c <"$work/good.json")
head -c $((size - 10)) "$work/good.json" >"$work/cut.json"
: >"$work/empty.json"
lines=$(wc -l <"$work/good.json")
awk -v mid=$((lines / 2)) 'NR == mid { print "{\"event\":\"region_enter\",\"sid\":" ; next } { print }' \
	"$work/good.json" >"$work/damaged.json"
cp "$work/t.zst" "$work/binary.json"
printf '%s\n' '{"a":1}' '[1,2,3]' '"text"' '{"event":"exit","sid":"x","time":"yesterday"}' \
	>"$work/other.json"

# report NAME: the JSON report with NAME.json as trace2 data; checks it exits 0 with the
# same processes and prints what stderr holds.
report() {
	"$report" --json --trace2 "$work/$1.json" "$work/t.zst" >"$work/$1.out" 2>"$work/$1.err" ||
		check_failed "$1: exit status $?: $(cat "$work/$1.err")"
	check_eq "$1: the same processes" "$processes" "$(jq '.processes | length' "$work/$1.out")"
	# The text report too.
	"$report" --trace2 "$work/$1.json" "$work/t.zst" >"$work/$1.txt" 2>/dev/null ||
		check_failed "$1: the text report failed"
	check_grep "$1: the text report" '^gittrace-report: ' "$work/$1.txt"
}
phases() { # phases NAME: how many processes have phases
	jq '[.processes[] | select(.phases)] | length' "$work/$1.out"
}

report good
check_eq "good: no warning" "" "$(cat "$work/good.err")"
check_eq "good: rev-list has phases" 1 "$(phases good)"

for name in cut foreign empty damaged binary other; do
	report $name
	check_eq "$name: one line on stderr" 1 "$(wc -l <"$work/$name.err")"
	check_grep "$name: a warning about the trace2 file" \
		"^gittrace-report: warning: trace2 file '.*$name.json'" "$work/$name.err"
done
check_grep "cut: says so" "is cut short" "$work/cut.err"
check_grep "foreign: says so" "none of its 1 sessions matches a process of the trace" \
	"$work/foreign.err"
check_eq "foreign: no phases" 0 "$(phases foreign)"
check_grep "empty: says so" "is empty: no phases" "$work/empty.err"
check_eq "empty: no phases" 0 "$(phases empty)"
check_grep "damaged: says which line" "1 of $lines lines are not trace2 events \(first: line $((lines / 2))\)" \
	"$work/damaged.err"
check_eq "damaged: the rest still gives phases" 1 "$(phases damaged)"
check_grep "other JSON: every line skipped" "4 of 4 lines are not trace2 events" "$work/other.err"

# Fuzz-ish: the good file cut at 9 points, and with one byte overwritten
# there (a quote, a brace, a digit, a newline): never a crash, at most one
# warning, a valid report.
bad=0
for i in $(seq 1 9); do
	at=$((size * i / 10))
	head -c "$at" "$work/good.json" >"$work/mut.cut.json"
	for byte in quote brace digit newline; do
		{
			head -c "$at" "$work/good.json"
			case $byte in
			quote) printf '"' ;; brace) printf '}' ;; digit) printf 7 ;; newline) printf '\n' ;;
			esac
			tail -c +$((at + 2)) "$work/good.json"
		} >"$work/mut.$byte.json"
	done
	for f in "$work"/mut.*.json; do
		if ! "$report" --json --trace2 "$f" "$work/t.zst" >"$work/mut.out" 2>"$work/mut.err" ||
			! jq -e '.processes | length > 0' "$work/mut.out" >/dev/null ||
			[ "$(wc -l <"$work/mut.err")" -gt 1 ]; then
			bad=$((bad + 1))
			echo "$(basename "$f") at byte $at: $(cat "$work/mut.err")" >&2
		fi
	done
done
check_eq "mutated trace2 files: reports without a crash or a second warning" 0 "$bad"

set +e
"$report" --trace2 "$work/missing.json" "$work/t.zst" >/dev/null 2>"$work/missing.err"
status=$?
set -e
check_eq "missing: exit status" 1 "$status"
check_grep "missing: the error" "^gittrace-report: cannot open '.*missing.json': No such file" \
	"$work/missing.err"
finish
