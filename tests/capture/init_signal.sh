# init_signal.sh: in a child forked into a new pid namespace, its init
# (pid 1), the tracer catches no signal (preload/hooks_signal.c): the
# kernel drops a signal an init leaves at its default action, and a catcher
# there took SIGTERM and cut the child's sleep short. A child the init forks
# is no init, and has the catcher: killed by SIGTERM, it keeps its calls
# and its END (before, none: "complete": false). `signal_actions init`
# (tests/progs/signal_actions.c) is the subject; it exits 77, and the test
# is skipped, where no pid namespace can be made.
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
plain_and_traced init "$preload" "$prog" init
"$report" --json "$work/trace.zst" >"$work/init.json" || fail "the report failed"
check_complete init "$work/init.json"
check_grep "untraced, the init's child died of SIGTERM" "^init's child: killed by signal 15$" \
	"$work/plain.stdout"
check_eq "init: the processes, and those killed" "3 SIGTERM" \
	"$(jq -r '"\(.processes | length) \([.processes[] | select(.killed_by) | .killed_by] | join(" "))"' \
		"$work/init.json")"
check_eq "init's child: its calls of malloc" true \
	"$(jq '[.processes[] | select(.killed_by)][0].calls.malloc >= 1000' "$work/init.json")"
finish
