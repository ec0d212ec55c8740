# stress_threads.sh: the concurrency stress (stress_threads.c) untraced and
# traced, each bounded by timeout (a hang is a failure; how long a run takes
# is not checked). The traced run must succeed with the untraced run's
# output, and its trace must hold every image the program made — its own,
# one per fork, one per exec of a child — complete, with no record lost
# (checks.sh).
#
# usage: bash stress_threads.sh PRELOAD REPORT STRESS_THREADS ROUNDS WORKDIR
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/checks.sh"

[ $# -eq 5 ] || fail "usage: stress_threads.sh PRELOAD REPORT STRESS_THREADS ROUNDS WORKDIR"
preload=$1 report=$2 prog=$3 rounds=$4 work=$5
fresh_dir "$work"
clean_gittrace_env

set +e
timeout -s KILL 400 "$prog" "$rounds" >"$work/plain.stdout" 2>"$work/plain.stderr"
plain=$?
# Small blocks flushed often: more writes racing with forks and exits.
GITTRACE_OUTPUT=$work/trace.zst GITTRACE_BUFFER_SIZE=64k GITTRACE_FLUSH_INTERVAL_MS=10 \
	run_traced "$preload" timeout -s KILL 400 "$prog" "$rounds" \
	>"$work/traced.stdout" 2>"$work/traced.stderr"
traced=$?
set -e
[ "$plain" -ne 137 ] || fail "stress_threads hung without the preload"
[ "$traced" -ne 137 ] || fail "stress_threads hung under the preload (killed by timeout)"
check_eq "untraced exit status" 0 "$plain"
check_eq "traced exit status" 0 "$traced"
same_files "stdout" "$work/plain.stdout" "$work/traced.stdout"
check_eq "traced stderr" "" "$(cat "$work/traced.stderr")"

forks=$(sed -n 's/^stress_threads: \([0-9]*\) forks, [0-9]* execs$/\1/p' "$work/traced.stdout")
execs=$(sed -n 's/^stress_threads: [0-9]* forks, \([0-9]*\) execs$/\1/p' "$work/traced.stdout")
[ -n "$forks" ] && [ -n "$execs" ] || fail "no counts in: $(cat "$work/traced.stdout")"

read_trace stress "$work/trace.zst"
q() {
	jq -r "$1" "$work/stress.json"
}
check_complete stress "$work/stress.json"
# The run is timeout (the root), its fork, which execs the program: then
# the program's forks and its children's execs.
check_eq "timeout's images (fork, root)" "fork root" \
	"$(q '[.processes[] | select(.argv[0] == "timeout") | .origin] | sort | join(" ")')"
main='(.processes[] | select(.origin == "exec" and .argv[1:] == ["'"$rounds"'"]))'
check_eq "program images" 1 "$(q "[$main] | length")"
check_eq "fork images of the program" "$forks" \
	"$(q "$main.image_id as \$m | [.processes[] | select(.origin == \"fork\" and
		.parent_image_id == \$m)] | length")"
check_eq "exec images (stress_threads --child)" "$execs" \
	"$(q "$main.pid as \$p | [.processes[] | select(.origin == \"exec\" and .ppid == \$p and
		.argv == [\"stress_threads\", \"--child\"])] | length")"
check_eq "images in all" $((3 + forks + execs)) "$(q '.processes | length')"
# Children in child mode end with exit(0), which the tracer sees.
check_eq "exit status of every exec'd child" "[0]" \
	"$(q '[.processes[] | select(.argv == ["stress_threads", "--child"]) | .exit_status]
		| unique | tojson')"
audit_trace stress
finish
