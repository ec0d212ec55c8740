# init_signal.sh: in a child forked into a new pid namespace, its init
# (pid 1), the tracer catches no signal (preload/hooks_signal.c): the
# kernel drops a signal an init leaves at its default action, and a catcher
# there took SIGTERM and cut the child's sleep short. A child the init forks
# is no init, and has the catcher: killed by SIGTERM, it keeps its calls
# and its END (before, none: "complete": false), where the forks are
# fork() and where they are raw system calls. `signal_actions init` and
# `init-raw` (tests/progs/signal_actions.c) are the subjects; they exit
# 77, and the test is skipped, where no pid namespace can be made.
#
# usage: bash init_signal.sh PRELOAD REPORT PROGRAM WORKDIR
. "$(dirname "$0")/../lib.sh"

[ $# -eq 4 ] || fail "usage: init_signal.sh PRELOAD REPORT PROGRAM WORKDIR"
preload=$1 report=$2 prog=$3 work=$4
fresh_dir "$work"
clean_gittrace_env

run_status "$work/plain" "$prog" init
if [ "$(cat "$work/plain.status")" = 77 ]; then
	cat "$work/plain.stdout"
	exit 77
fi
check_grep "untraced, the init slept through SIGTERM" "^init: pid 1, its sleep lasted a second$" \
	"$work/plain.stdout"
# Traced, with fork() and with raw system calls, which run no fork handler
# (before, the init's child made by one had no catcher: its calls were lost).
for mode in init init-raw; do
	plain_and_traced "$mode" "$preload" "$prog" "$mode"
	"$report" --json "$work/trace.zst" >"$work/$mode.json" || fail "$mode: the report failed"
	check_complete "$mode" "$work/$mode.json"
	check_grep "$mode: untraced, the init's child died of SIGTERM" \
		"^init's child: killed by signal 15$" "$work/plain.stdout"
	check_eq "$mode: the processes, and those killed" "3 SIGTERM" \
		"$(jq -r '"\(.processes | length) \([.processes[] | select(.killed_by) | .killed_by] | join(" "))"' \
			"$work/$mode.json")"
	check_eq "$mode: the init's child: its calls of malloc" true \
		"$(jq '[.processes[] | select(.killed_by)][0].calls.malloc >= 1000' "$work/$mode.json")"
done
finish
