# exit_syscall.sh: a program that ends with syscall(SYS_exit_group), not
# libc's exit or _exit (tests/progs/exit_syscall.c), keeps its exit status,
# and its trace holds every call: the tracer ends the image there as at
# _exit. Before, the calls still in the tracer's buffer were lost without a
# word. The flush interval is an hour, so that nothing was written before.
#
# usage: bash exit_syscall.sh PRELOAD REPORT PROGRAM WORKDIR
. "$(dirname "$0")/../lib.sh"

[ $# -eq 4 ] || fail "usage: exit_syscall.sh PRELOAD REPORT PROGRAM WORKDIR"
preload=$1 report=$2 prog=$3 work=$4
fresh_dir "$work"

run_status "$work/plain" "$prog"
check_eq "untraced exit status" 3 "$(cat "$work/plain.status")"
GITTRACE_OUTPUT=$work/trace.zst GITTRACE_FLUSH_INTERVAL_MS=3600000 \
	run_status "$work/traced" run_traced "$preload" "$prog"
same_outcome "traced" "$work/plain" "$work/traced" 0
"$report" --dump "$work/trace.zst" >"$work/dump.txt"
check_eq "every allocation in the trace" 1000 \
	"$(grep -c " CALL fn=malloc .* size=4327 " "$work/dump.txt" || true)"
check_eq "the END is an _exit's" "reason=_exit status=3" \
	"$(grep " END " "$work/dump.txt" | grep -o 'reason=[a-z_]* status=[0-9-]*')"
"$report" --json "$work/trace.zst" >"$work/report.json"
check_eq "trace complete" true "$(jq .trace.complete "$work/report.json")"
finish
