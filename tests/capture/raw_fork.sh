# raw_fork.sh: a fork made through syscall(SYS_clone), which runs no
# pthread_atfork handler (tests/progs/raw_fork.c), from the main thread and
# while another thread allocates. The child must be an image of its own,
# with its own calls only: before, it wrote its parent's unwritten records
# a second time under the parent's image and block numbers, and the
# report refused the whole trace as corrupt. The flush interval is an
# hour, so that the parent's calls are all unwritten at the fork.
#
# usage: bash raw_fork.sh PRELOAD REPORT PROGRAM WORKDIR
. "$(dirname "$0")/../lib.sh"

[ $# -eq 4 ] || fail "usage: raw_fork.sh PRELOAD REPORT PROGRAM WORKDIR"
preload=$1 report=$2 prog=$3 work=$4
fresh_dir "$work"

# count DUMP PID SIZE: the pid's malloc calls of SIZE bytes in the dump.
count() {
	grep -c " pid=$2 .* CALL fn=malloc .* size=$3 " "$1" || true
}

for mode in main threads; do
	args=()
	[ "$mode" = main ] || args=("$mode")
	run_status "$work/$mode.plain" "$prog" "${args[@]}"
	check_eq "$mode: untraced output" "child status 7" "$(cat "$work/$mode.plain.stdout")"
	GITTRACE_OUTPUT=$work/$mode.zst GITTRACE_FLUSH_INTERVAL_MS=3600000 \
		run_status "$work/$mode" run_traced "$preload" "$prog" "${args[@]}"
	same_outcome "$mode" "$work/$mode.plain" "$work/$mode" 0
	"$report" --json "$work/$mode.zst" >"$work/$mode.json" 2>"$work/$mode.report.err" ||
		fail "$mode: the report failed: $(cat "$work/$mode.report.err")"
	check_eq "$mode: trace complete" true "$(jq .trace.complete "$work/$mode.json")"
	check_eq "$mode: the program and its forked child" "fork root" \
		"$(jq -r '[.processes[].origin] | sort | join(" ")' "$work/$mode.json")"
	"$report" --dump "$work/$mode.zst" >"$work/$mode.dump"
	parent=$(jq -r '.processes[] | select(.origin == "root") | .pid' "$work/$mode.json")
	child=$(jq -r '.processes[] | select(.origin == "fork") | .pid' "$work/$mode.json")
	check_eq "$mode: the parent's calls before the fork" 1000 "$(count "$work/$mode.dump" "$parent" 1111)"
	check_eq "$mode: the parent's calls after it" 300 "$(count "$work/$mode.dump" "$parent" 3333)"
	check_eq "$mode: the child's calls" 500 "$(count "$work/$mode.dump" "$child" 2222)"
	check_eq "$mode: none of the parent's calls again in the child" 0 \
		"$(count "$work/$mode.dump" "$child" 1111)"
done
finish
