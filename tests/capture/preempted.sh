# preempted.sh: the END record counts the times the kernel switched the
# process out for other work (format 4.2, involuntary_switches), and the
# report gives them (`involuntary_switches` in --json): a busy machine makes
# times inside calls err high (docs/report.md). tests/progs/preempted.c
# shares one CPU with a busy child until it has been switched out 5 times.
#
# usage: bash preempted.sh PRELOAD REPORT PROGRAM WORKDIR
. "$(dirname "$0")/../lib.sh"

[ $# -eq 4 ] || fail "usage: preempted.sh PRELOAD REPORT PROGRAM WORKDIR"
preload=$1 report=$2 prog=$3 work=$4
fresh_dir "$work"
clean_gittrace_env

GITTRACE_OUTPUT=$work/trace.zst run_status "$work/traced" run_traced "$preload" "$prog"
check_eq "preempted's exit status" 0 "$(cat "$work/traced.status")"
seen=$(sed -n 's/^switched out \([0-9]*\) times$/\1/p' "$work/traced.stdout")
[ -n "$seen" ] || fail "preempted printed no count: $(cat "$work/traced.stdout")"
"$report" --json "$work/trace.zst" >"$work/trace.json" || fail "the report failed"
# The program's own process (the first image), and its count since the tracer started.
counted=$(jq '.processes[] | select(.origin == "root") | .involuntary_switches' "$work/trace.json")
[ "$counted" -ge "$seen" ] ||
	fail "the trace counts $counted involuntary switches, the program saw $seen"
echo "ok: the trace counts $counted involuntary switches, the program saw $seen"
finish
