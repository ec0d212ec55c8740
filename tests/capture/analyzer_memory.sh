# analyzer_memory.sh: the analyzer's memory follows the processes running at
# a time, not every process of the trace (issue: t5510's 93 MB trace of
# thousands of short processes took 7 GB). Two traces of many_children, with
# 1000 and 4000 short processes of 60 distinct stacks each: what the
# analyzer needs for each process beyond the first 1000 must stay under 20
# KiB (it keeps their counters and the sites it prints; before the fix it
# was about 200 KiB). Peak RSS is a count of pages, not a timing.
#
# usage: bash analyzer_memory.sh PRELOAD REPORT MANY_CHILDREN WORKDIR
. "$(dirname "$0")/../lib.sh"

[ $# -eq 4 ] || fail "usage: analyzer_memory.sh PRELOAD REPORT MANY_CHILDREN WORKDIR"
preload=$1 report=$2 prog=$3 work=$4
fresh_dir "$work"
command -v /usr/bin/time >/dev/null || fail "needs GNU time (/usr/bin/time; Debian: time)"

# peak_kib N MODE: the analyzer's peak RSS in KiB on a trace of N children.
peak_kib() {
	local n=$1 mode=$2
	[ -e "$work/$n.zst" ] || GITTRACE_OUTPUT="$work/$n.zst" run_traced "$preload" "$prog" "$n"
	/usr/bin/time -f %M -o "$work/$n$mode.rss" "$report" "$mode" "$work/$n.zst" \
		>"$work/$n$mode.out"
	cat "$work/$n$mode.rss"
}

for mode in --json --top=10; do
	small=$(peak_kib 1000 "$mode")
	large=$(peak_kib 4000 "$mode")
	per=$(((large - small) / 3))
	echo "$mode: 1000 processes $small KiB, 4000 processes $large KiB: $per bytes per process"
	[ "$per" -lt $((20 * 1024)) ] || fail "$mode: $per bytes per process (limit 20 KiB)"
done
check_eq "processes reported" 4001 "$(jq '.processes | length' "$work/4000--json.out")"
check_eq "trace complete" true "$(jq .trace.complete "$work/4000--json.out")"
check_eq "leaks counted in every child" 120000 \
	"$(jq '[.processes[] | select(.origin == "fork") | .heap.leaked_allocations] | add' \
		"$work/4000--json.out")"
finish
