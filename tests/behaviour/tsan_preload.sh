# tsan_preload.sh: the preload's own code under ThreadSanitizer
# (tsan_driver.c): no TSan report, no hang, and a trace that holds exactly
# the calls the driver made, in every image, with nothing lost. Two modes:
# counting (no stacks) with threads that come and go, and stacks with
# threads that never end (libunwind's thread-exit destructor and TSan do
# not mix: google/sanitizers#943). The stacks mode runs several times:
# each run forks while other threads unwind, and one run may miss a race.
#
# usage: bash tsan_preload.sh TSAN_DRIVER REPORT WORKDIR
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/checks.sh"

[ $# -eq 3 ] || fail "usage: tsan_preload.sh TSAN_DRIVER REPORT WORKDIR"
driver=$1 report=$2 work=$3
fresh_dir "$work"
clean_gittrace_env
export TSAN_OPTIONS="halt_on_error=1 exitcode=66"

# one_run NAME DEPTH ARGS...: runs the driver with stack depth DEPTH.
one_run() {
	local name=$1 depth=$2 status
	shift 2
	set +e
	GITTRACE_OUTPUT=$work/$name.zst GITTRACE_STACK_DEPTH=$depth \
		timeout -s KILL 120 "$driver" "$@" >"$work/$name.stdout" 2>"$work/$name.stderr"
	status=$?
	set -e
	[ "$status" -ne 137 ] || fail "$name: the driver hung (killed after 120 s)"
	if grep -q ThreadSanitizer "$work/$name.stderr"; then
		head -40 "$work/$name.stderr" >&2
		fail "$name: ThreadSanitizer reported (above)"
	fi
	check_eq "$name: exit status" 0 "$status"
	check_eq "$name: stderr" "" "$(cat "$work/$name.stderr")"
	local out
	out=$(cat "$work/$name.stdout")
	local re='^tsan_driver: ([0-9]+) calls, ([0-9]+) forks, ([0-9]+) calls per fork$'
	[[ $out =~ $re ]] || fail "$name: unexpected output: $out"
	local calls=${BASH_REMATCH[1]} forks=${BASH_REMATCH[2]} per_fork=${BASH_REMATCH[3]}

	read_trace "$name" "$work/$name.zst"
	q() {
		jq -r "$1" "$work/$name.json"
	}
	check_complete "$name" "$work/$name.json"
	check_eq "$name: calls of the root image" "$calls" \
		"$(q '.processes[] | select(.origin == "root") | .events')"
	check_eq "$name: fork images" "$forks" "$(q '[.processes[] | select(.origin == "fork")] | length')"
	check_eq "$name: calls of each fork image" "[$per_fork]" \
		"$(q '[.processes[] | select(.origin == "fork") | .events] | unique | tojson')"
	check_eq "$name: exit status of each fork image" "[0]" \
		"$(q '[.processes[] | select(.origin == "fork") | .exit_status] | unique | tojson')"
	audit_trace "$name"
}

one_run counting 0 300 40
for i in 1 2 3 4 5; do
	one_run "stacks-$i" 32 300 40 --threads-never-end
done
finish
