# writer_thread.sh: the tracer's writer thread (preload/writer_thread.c)
# leaves the program's signals alone.
#   - writer_signals (tests/progs) allocates until its process has a
#     second thread, then blocks SIGUSR1, sends it to itself and unblocks it:
#     traced, the second thread is there (the tracer's: untraced there is
#     none) and the signal is still handled by the program's own thread,
#     as untraced;
#   - the trace reads back whole: every call its END record counts, one
#     thread.
#
# usage: bash writer_thread.sh PRELOAD REPORT WRITER_SIGNALS WORKDIR
. "$(dirname "$0")/../lib.sh"

[ $# -eq 4 ] || fail "usage: writer_thread.sh PRELOAD REPORT WRITER_SIGNALS WORKDIR"
preload=$1 report=$2 prog=$3 work=$4
fresh_dir "$work"

"$prog" >"$work/plain.out"
GITTRACE_OUTPUT="$work/trace.zst" GITTRACE_BUFFER_SIZE=65536 GITTRACE_STACK_DEPTH=0 \
	run_traced "$preload" "$prog" >"$work/traced.out"
cat "$work/traced.out"
check_eq "untraced: threads" "threads: 1" "$(sed -n 1p "$work/plain.out")"
check_eq "untraced: handled on the main thread" "handled on the main thread: yes" \
	"$(sed -n 2p "$work/plain.out")"
check_eq "traced: threads (the writer's too)" "threads: 2" "$(sed -n 1p "$work/traced.out")"
check_eq "traced: handled on the main thread" "handled on the main thread: yes" \
	"$(sed -n 2p "$work/traced.out")"

"$report" --json "$work/trace.zst" >"$work/report.json"
check_eq "trace complete" true "$(jq .trace.complete "$work/report.json")"
check_eq "threads the trace names (the program's only)" 1 \
	"$(jq '.processes[0].threads' "$work/report.json")"
check_eq "dropped calls" 0 "$(jq '.processes[0].dropped_calls' "$work/report.json")"
# Every call the END record counts is in the trace (trace_audit.awk says LOST if not).
"$report" --dump "$work/trace.zst" | awk -f "$(dirname "$0")/../behaviour/trace_audit.awk" \
	>"$work/audit"
check_eq "calls lost between the tracer and the file" "" "$(grep '^LOST ' "$work/audit" || true)"
finish
