# fd_budget.sh: the tracer's descriptors count against the program's
# `ulimit -n`; it takes one, the trace file, in counting mode and with
# stacks. libunwind's memory-check pipe took two more in every process
# with stacks on, from the tracer's start; now libunwind starts at its
# first walk (unwind.c), and a process whose every stack our own walk
# follows, as tests/progs/fd_budget.c's, never makes that pipe. When it
# does start, at the program's limit, the pipe goes to 700 or above or is
# not made (hooks_fd.c): it never takes the two numbers the program just
# closed and opens again.
#
# usage: bash fd_budget.sh PRELOAD REPORT PROGRAM WORKDIR
. "$(dirname "$0")/../lib.sh"

[ $# -eq 4 ] || fail "usage: fd_budget.sh PRELOAD REPORT PROGRAM WORKDIR"
preload=$1 report=$2 prog=$3 work=$4
fresh_dir "$work"

# opened MODE OUT: the program's count under ulimit -n 64, MODE plain,
# stacks or counting; its output in OUT.
limit=64
opened() {
	local mode=$1 out=$2
	case $mode in
	plain) (ulimit -n $limit && exec "$prog") ;;
	stacks) (ulimit -n $limit && GITTRACE_OUTPUT=$work/$mode.zst run_traced "$preload" "$prog") ;;
	counting) (ulimit -n $limit && GITTRACE_OUTPUT=$work/$mode.zst GITTRACE_STACK_DEPTH=0 \
		run_traced "$preload" "$prog") ;;
	esac >"$out" 2>"$out.stderr" || fail "$mode: the program failed: $(cat "$out" "$out.stderr")"
	sed -n 's/^opened \([0-9]*\) until .*$/\1/p' "$out"
}
plain=$(opened plain "$work/plain")
check_grep "plain: the two closed opened again" "^opened 2 of 2 again$" "$work/plain"
[ "$plain" -gt 40 ] || fail "untraced the program opened only '$plain' under ulimit -n $limit"
for mode in stacks counting; do
	check_eq "$mode: descriptors the program got (untraced: $plain)" $((plain - 1)) \
		"$(opened $mode "$work/$mode")"
	check_eq "$mode: no warning" "" "$(cat "$work/$mode.stderr")"
	check_grep "$mode: the two closed opened again" "^opened 2 of 2 again$" "$work/$mode"
	"$report" --json "$work/$mode.zst" >"$work/$mode.json" || fail "$mode: the report failed"
	check_complete "$mode" "$work/$mode.json"
done
finish
