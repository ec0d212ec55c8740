# synthetic.sh: phases on recorded facts. make_trace's trace (tests/cli)
# has an image of pid 100 whose IMAGE says it started at realtime
# 1700000000 s (2023-11-14T22:13:20Z): 17 heap calls in its first 200 ns,
# 25 map calls about 99 us in, END at 1 s and one free after END. A
# hand-written trace2 session of pid 100 puts region test:setup over the
# first 50 us, test:maps over 90-200 us (with test:inner-empty at 95-96 us
# inside it) and exits at 1 s: the rows must be exactly those calls, and
# add up to the process's totals. The same without the IMAGE's realtime
# reading (make_trace --no-realtime): aligned by git's process start.
#
# usage: bash synthetic.sh REPORT MAKE_TRACE WORKDIR
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib.sh"
[ $# -eq 3 ] || fail "usage: synthetic.sh REPORT MAKE_TRACE WORKDIR"
report=$1 make_trace=$2 work=$3
fresh_dir "$work"
"$make_trace" "$work/t.zst" || fail "make_trace failed"

synthetic_trace2 "$work/t2.json"

"$report" --json --trace2 "$work/t2.json" "$work/t.zst" >"$work/r.json" 2>"$work/r.err" ||
	fail "gittrace-report --trace2 failed: $(cat "$work/r.err")"
check_eq "no warning" "" "$(cat "$work/r.err")"
a='(.processes[] | select(.pid == 100))'
row() { # row LABEL FIELD
	jq -r "$a.phases[] | select(.name == \"$1\") | .$2" "$work/r.json"
}
check_eq "rows, outside first" '["(outside any region)","setup","maps","inner-empty"]' \
	"$(jq -c "[$a.phases[].name]" "$work/r.json")"
check_eq "setup: calls" 17 "$(row setup calls)"
check_eq "setup: allocations" 10 "$(row setup allocations)"
check_eq "setup: bytes" 760 "$(row setup bytes)"
check_eq "setup: temporary" 7 "$(row setup temporary)"
check_eq "setup: seconds" 5e-05 "$(row setup seconds)"
check_eq "maps: map calls" 25 "$(row maps map_calls)"
check_eq "maps: calls" 25 "$(row maps calls)"
check_eq "maps: seconds (inner-empty's microsecond left out)" 0.000109 "$(row maps seconds)"
check_eq "inner-empty: calls" 0 "$(row inner-empty calls)"
check_eq "outside: the free after exit" 1 "$(row '(outside any region)' calls)"
check_eq "category" test "$(row setup category)"
for f in calls:events allocations:heap.allocations bytes:heap.allocated_bytes \
	temporary:heap.temporary_allocations map_calls:'calls.mmap+.calls.munmap+.calls.mremap'; do
	check_eq "rows add up: ${f%%:*}" true \
		"$(jq "$a | ([.phases[].${f%%:*}] | add) == (.${f#*:})" "$work/r.json")"
done
check_eq "times joined by the realtime clock" false "$(jq "$a.phases_approximate" "$work/r.json")"
check_eq "no phases for pid 101 (no session)" 0 \
	"$(jq '[.processes[] | select(.pid == 101) | select(.phases)] | length' "$work/r.json")"

"$report" --trace2 "$work/t2.json" "$work/t.zst" >"$work/r.txt" || fail "text report failed"
check_grep "text: the table" '^  phases \(innermost trace2 region\):$' "$work/r.txt"
check_grep "text: a row" '^  test:setup +0\.000 +10 +760 B +7 ' "$work/r.txt"
"$report" --html "$work/r.html" --trace2 "$work/t2.json" "$work/t.zst" || fail "--html failed"
check_grep "html: the bands" '"phases":\[\[[0-9.e-]+,[0-9.e-]+,"test:setup"\]' "$work/r.html"

# GIT_TRACE2_EVENT=DIR: a file per process in a directory, read in name order.
mkdir "$work/t2.d"
cp "$work/t2.json" "$work/t2.d/20231114T221320.000000Z-H0a7c9cdf-P00000064"
: >"$work/t2.d/other"
"$report" --json --trace2 "$work/t2.d" "$work/t.zst" >"$work/dir.json" 2>"$work/dir.err" ||
	fail "gittrace-report --trace2 DIR failed: $(cat "$work/dir.err")"
check_eq "a directory: no warning" "" "$(cat "$work/dir.err")"
check_eq "a directory: the same rows" "$(jq -c "$a.phases" "$work/r.json")" \
	"$(jq -c "$a.phases" "$work/dir.json")"

# An IMAGE without the realtime reading: aligned by the session's process
# start (the start event's time less t_abs: 22:13:20.000000 here), the same
# rows, said to be approximate.
"$make_trace" "$work/norealtime.zst" --no-realtime || fail "make_trace --no-realtime failed"
"$report" --json --trace2 "$work/t2.json" "$work/norealtime.zst" >"$work/approx.json" ||
	fail "gittrace-report on --no-realtime failed"
check_eq "no realtime: approximate" true "$(jq "$a.phases_approximate" "$work/approx.json")"
check_eq "no realtime: the same rows" "$(jq -c "[$a.phases[] | [.name, .calls]]" "$work/r.json")" \
	"$(jq -c "[$a.phases[] | [.name, .calls]]" "$work/approx.json")"
"$report" --trace2 "$work/t2.json" "$work/norealtime.zst" >"$work/approx.txt" ||
	fail "text report on --no-realtime failed"
check_grep "no realtime: the text says so" 'aligned by git.s process start, approximate' \
	"$work/approx.txt"

# Without trace2 data: no phases, and how to get them.
"$report" "$work/t.zst" >"$work/none.txt" || fail "report failed"
check_grep "no trace2: how to get phases" '^phases: none \(no trace2 data\); record them with `gittrace --phases -- CMD`' "$work/none.txt"
"$report" --json "$work/t.zst" >"$work/none.json" || fail "report failed"
check_eq "no trace2: no phases in JSON" 0 "$(jq '[.processes[] | select(.phases)] | length' "$work/none.json")"
finish
