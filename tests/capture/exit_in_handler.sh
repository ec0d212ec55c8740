# exit_in_handler.sh: a process that ends from a signal handler which
# interrupted one of the tracer's hooks keeps its END and its calls. The
# hook never resumes; its guard kept the image from ending, so the trace
# had no END and lost the calls not yet written (the report took the
# process for killed). tests/progs/exit_in_handler.c is the subject, with
# tests/progs/mremap_signal.c preloaded after libgittrace.so so that the
# handler runs inside the mremap hook every time.
#
# usage: bash exit_in_handler.sh PRELOAD REPORT PROGRAM MREMAP_SIGNAL WORKDIR
. "$(dirname "$0")/../lib.sh"

[ $# -eq 5 ] || fail "usage: exit_in_handler.sh PRELOAD REPORT PROGRAM MREMAP_SIGNAL WORKDIR"
preload=$1 report=$2 prog=$3 shim=$4 work=$5
fresh_dir "$work"

# MODE:STATUS:MALLOCS (exit's atexit handler allocates once more).
for case in exit:5:1001 _exit:6:1000 quick_exit:7:1000; do
	IFS=: read -r mode status mallocs <<<"$case"
	LD_PRELOAD=$shim run_status "$work/$mode.plain" "$prog" "$mode"
	check_eq "$mode: untraced exit status" "$status" "$(cat "$work/$mode.plain.status")"
	GITTRACE_OUTPUT=$work/$mode.zst LD_PRELOAD=$preload:$shim \
		run_status "$work/$mode" "$prog" "$mode"
	same_outcome "$mode" "$work/$mode.plain" "$work/$mode" 0
	"$report" --json "$work/$mode.zst" >"$work/$mode.json"
	check_eq "$mode: trace complete" true "$(jq .trace.complete "$work/$mode.json")"
	check_eq "$mode: the exit status in the report" "$status" \
		"$(jq '.processes[0].exit_status' "$work/$mode.json")"
	"$report" --dump "$work/$mode.zst" >"$work/$mode.dump"
	check_eq "$mode: every allocation of the program" "$mallocs" \
		"$(grep -c " CALL fn=malloc .* size=5231 " "$work/$mode.dump" || true)"
done
finish
