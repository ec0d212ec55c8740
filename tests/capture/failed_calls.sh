# failed_calls.sh: the report counts each function's failed calls (NULL for
# bytes asked, posix_memalign's errno, MAP_FAILED, munmap's -1), in the
# text table and in --json, and no call whose NULL is no failure
# (realloc(p, 0), 0 bytes asked). tests/progs/failed_calls.c is the subject:
# it checks each failure as it happens and prints how many it made.
#
# usage: bash failed_calls.sh PRELOAD REPORT PROGRAM WORKDIR
. "$(dirname "$0")/../lib.sh"

[ $# -eq 4 ] || fail "usage: failed_calls.sh PRELOAD REPORT PROGRAM WORKDIR"
preload=$1 report=$2 prog=$3 work=$4
fresh_dir "$work"

plain_and_traced "failed calls" "$preload" "$prog"
check_eq "failed calls: exit status" 0 "$(cat "$work/plain.status")"

"$report" --json "$work/trace.zst" >"$work/report.json" || fail "the report failed"
check_complete "failed calls" "$work/report.json"
"$report" "$work/trace.zst" >"$work/report.txt" || fail "the text report failed"
# The program's failures, each function with a count; every other function none.
expected=$(sort "$work/plain.stdout")
[ "$(echo "$expected" | wc -l)" -ge 12 ] || fail "the program reported too few functions"
got=$(jq -r '.processes[0].functions | to_entries[] | select(.value.failed > 0)
	| "\(.key) \(.value.failed)"' "$work/report.json" | sort)
check_eq "failed calls by function (--json)" "$expected" "$got"
check_eq "totals' failed calls" "$(echo "$expected" | awk '{ n += $2 } END { print n }')" \
	"$(jq '[.totals.functions[].failed] | add' "$work/report.json")"
# In the text table, the failed column is the row's last: "mmap 4 13 µs 3 µs 2".
while read -r fn n; do
	check_grep "$fn's row counts $n failed" "^         $fn  *[0-9][0-9]* .* $n\$" "$work/report.txt"
done <<<"$expected"
finish
