# analyzer_memory.sh: the analyzer's memory follows the processes running at
# a time, not every process of the trace (issue: t5510's 93 MB trace of
# thousands of short processes took 7 GB). Two traces of many_children, with
# 1000 and 4000 short processes of 60 distinct stacks each: what the
# analyzer needs for each process beyond the first 1000 must stay under 20
# KiB (it keeps their counters and the sites it prints; before the fix it
# was about 200 KiB), --folded too (it kept the whole model), under 40 KiB
# for the HTML page (which also keeps each process's timeline, 128 points
# at least, and its visible part of the flame graph; it kept the whole
# model: 160 KiB). Peak RSS is a count of pages, not a timing.
#
# usage: bash analyzer_memory.sh PRELOAD REPORT MANY_CHILDREN WORKDIR
. "$(dirname "$0")/../lib.sh"

[ $# -eq 4 ] || fail "usage: analyzer_memory.sh PRELOAD REPORT MANY_CHILDREN WORKDIR"
preload=$1 report=$2 prog=$3 work=$4
fresh_dir "$work"
command -v /usr/bin/time >/dev/null || fail "needs GNU time (/usr/bin/time; Debian: time)"

# facts MODE: what the checks below read of a report on stdin, which would
# take 400 MB on disk for 4000 processes in --json: the processes, whether
# the trace is complete and the leaks of the forks, or (text) its lines.
facts() {
	if [ "$1" = --json ]; then
		jq -c '{processes: (.processes | length), complete: .trace.complete,
			fork_leaks: ([.processes[] | select(.origin == "fork") |
				.heap.leaked_allocations] | add)}'
	else
		wc -l
	fi
}

# peak_kib N MODE: the analyzer's peak RSS in KiB on a trace of N children
# (the report's facts in $work/N.MODE.facts; --html writes $work/N.html).
peak_kib() {
	local n=$1 mode=$2 arg=$2
	[ -e "$work/$n.zst" ] || GITTRACE_OUTPUT="$work/$n.zst" run_traced "$preload" "$prog" "$n"
	[ "$mode" = --html ] && arg=--html=$work/$n.html
	/usr/bin/time -f %M -o "$work/$n$mode.rss" "$report" "$arg" "$work/$n.zst" |
		facts "$mode" >"$work/$n$mode.facts" || fail "gittrace-report $mode failed on $n children"
	cat "$work/$n$mode.rss"
}

for mode_limit in --json:20 --top=10:20 --folded:20 --html:40; do
	mode=${mode_limit%:*} limit=${mode_limit#*:}
	small=$(peak_kib 1000 "$mode")
	large=$(peak_kib 4000 "$mode")
	per=$(((large - small) / 3))
	echo "$mode: 1000 processes $small KiB, 4000 processes $large KiB: $per bytes per process"
	[ "$per" -lt $((limit * 1024)) ] || fail "$mode: $per bytes per process (limit $limit KiB)"
done
check_grep "the page's data" 'id="gt-data"' "$work/4000.html"
facts=$work/4000--json.facts
check_eq "processes reported" 4001 "$(jq .processes "$facts")"
check_eq "trace complete" true "$(jq .complete "$facts")"
check_eq "leaks counted in every child" 120000 "$(jq .fork_leaks "$facts")"
finish
