# cancel_points.sh: a thread with a cancellation request pending acts on it
# at its next cancellation point, traced as untraced. malloc, fork, exec and
# exit are none, but the tracer's work inside them (writing a block, a new
# image's id, reading /proc) made system calls that are: the thread died in
# the tracer, holding the stream's lock (the program hung), and a child of
# fork, an exec or an exit never ran the program's code (preload/no_cancel.h).
# tests/progs/cancel_points.c is the subject; small blocks make the loop's
# thread write several.
#
# usage: bash cancel_points.sh PRELOAD REPORT PROGRAM WORKDIR
. "$(dirname "$0")/../lib.sh"

[ $# -eq 4 ] || fail "usage: cancel_points.sh PRELOAD REPORT PROGRAM WORKDIR"
preload=$1 report=$2 prog=$3 work=$4
fresh_dir "$work"

# MODE:MALLOCS of 5233 bytes in the whole tree (exec: one before, one after).
for case in loop:100001 fork:2 exec:2 exit:1 _exit:1; do
	IFS=: read -r mode mallocs <<<"$case"
	run_status "$work/$mode.plain" "$prog" "$mode"
	# The hang this test found is caught by the kill; the run takes well under a second.
	GITTRACE_OUTPUT=$work/$mode.zst GITTRACE_BUFFER_SIZE=64k \
		run_status "$work/$mode" timeout -s KILL 120 \
		env LD_PRELOAD="${LD_PRELOAD:+$LD_PRELOAD:}$preload" "$prog" "$mode"
	same_outcome "$mode" "$work/$mode.plain" "$work/$mode" 0
	"$report" --json "$work/$mode.zst" >"$work/$mode.json"
	check_eq "$mode: trace complete" true "$(jq .trace.complete "$work/$mode.json")"
	"$report" --dump "$work/$mode.zst" >"$work/$mode.dump"
	check_eq "$mode: every allocation of the program" "$mallocs" \
		"$(grep -c " CALL fn=malloc .* size=5233 " "$work/$mode.dump" || true)"
done
check_grep "loop: the thread acted on its request after its calls" "^joined; cancelled: yes$" \
	"$work/loop.stdout"
check_grep "fork: the child's own code ran" "^the child ended with 5$" "$work/fork.stdout"
check_eq "exit: the status of exit" 4 "$(cat "$work/exit.status")"
finish
