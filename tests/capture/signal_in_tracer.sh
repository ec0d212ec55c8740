# signal_in_tracer.sh: a signal handler that mallocs, which untraced
# interrupts only map calls and the program's own code, never interrupts
# the tracer's work in the program's malloc (libdw reading a frame's rule:
# the heap was corrupted now and then, tests/progs/signal_in_tracer.c).
# The program counts the times its handler interrupted libdw, libelf, libz
# or libunwind: 0, as untraced, where it has none of them.
#
# usage: bash signal_in_tracer.sh PRELOAD REPORT PROGRAM WORKDIR
. "$(dirname "$0")/../lib.sh"

[ $# -eq 4 ] || fail "usage: signal_in_tracer.sh PRELOAD REPORT PROGRAM WORKDIR"
preload=$1 report=$2 prog=$3 work=$4
fresh_dir "$work"
clean_gittrace_env

plain_and_traced "signal in tracer" "$preload" "$prog"
check_eq "signal in tracer: exit status" 0 "$(cat "$work/plain.status")"
check_grep "the handler ran, interrupting none of the tracer's libraries" \
	"^tracer's libraries interrupted 0$" "$work/traced.stdout"
"$report" --json "$work/trace.zst" >"$work/report.json" || fail "the report failed"
check_complete "signal in tracer" "$work/report.json"
finish
