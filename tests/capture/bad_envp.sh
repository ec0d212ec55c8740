# bad_envp.sh: an exec or posix_spawn handed an environment the kernel
# refuses fails with EFAULT untraced; the tracer, which reads the
# environment to add the run's variables, crashed the program there
# (tests/progs/bad_envp.c). Each case must end as untraced: the bad call
# fails, the program goes on and execs a shell, which joins the trace. And
# a good environment whose last string ends on the last byte before an
# unreadable page must not be taken for a bad one.
#
# usage: bash bad_envp.sh PRELOAD REPORT PROGRAM WORKDIR
. "$(dirname "$0")/../lib.sh"

[ $# -eq 4 ] || fail "usage: bad_envp.sh PRELOAD REPORT PROGRAM WORKDIR"
preload=$1 report=$2 prog=$3 work=$4
fresh_dir "$work"

for mode in array:"execve -1 errno 14" string:"execve -1 errno 14" \
	unended:"execve -1 errno 14" spawn:"posix_spawn Bad address" edge:""; do
	said=${mode#*:} mode=${mode%%:*}
	run_status "$work/$mode.plain" "$prog" "$mode"
	check_eq "$mode: untraced exit status" 4 "$(cat "$work/$mode.plain.status")"
	check_eq "$mode: untraced output" "$said" "$(cat "$work/$mode.plain.stdout")"
	GITTRACE_OUTPUT=$work/$mode.zst run_status "$work/$mode" run_traced "$preload" "$prog" "$mode"
	same_outcome "$mode" "$work/$mode.plain" "$work/$mode" 0
	"$report" --json "$work/$mode.zst" >"$work/$mode.json" 2>"$work/$mode.report.err" ||
		fail "$mode: the report failed: $(cat "$work/$mode.report.err")"
	check_eq "$mode: trace complete" true "$(jq .trace.complete "$work/$mode.json")"
	check_eq "$mode: the program, and the shell it became" "exec:sh root:bad_envp" \
		"$(jq -r '[.processes[] | "\(.origin):\(.argv[0] | split("/") | last)"] | sort | join(" ")' \
			"$work/$mode.json")"
done
finish
