# stress_fork.sh: threads allocating while the main thread forks, execs
# /bin/true and forks+_exits, ROUNDS times, under the preload. It must finish
# (bounded by timeout: a hang is a failure, how long it takes is not
# checked), succeed, and leave a trace that holds every process image.
#
# usage: bash stress_fork.sh PRELOAD REPORT STRESS_FORK ROUNDS WORKDIR
. "$(dirname "$0")/../lib.sh"

[ $# -eq 5 ] || fail "usage: stress_fork.sh PRELOAD REPORT STRESS_FORK ROUNDS WORKDIR"
preload=$1 report=$2 prog=$3 rounds=$4 work=$5
fresh_dir "$work"

set +e
# timeout stays untraced; env, traced, execs stress_fork.
timeout -s KILL 600 env GITTRACE_OUTPUT="$work/trace.zst" \
	LD_PRELOAD="${LD_PRELOAD:+$LD_PRELOAD:}$preload" "$prog" "$rounds" \
	>"$work/stdout" 2>"$work/stderr"
status=$?
set -e
[ "$status" -ne 137 ] || fail "stress_fork hung (killed by timeout)"
check_eq "stress_fork exit status" 0 "$status"
check_eq "stress_fork stdout" "stress_fork: $rounds rounds" "$(cat "$work/stdout")"
check_eq "stress_fork stderr" "" "$(cat "$work/stderr")"

"$report" --json --top 1 "$work/trace.zst" >"$work/report.json" 2>"$work/report.stderr" ||
	fail "gittrace-report --json failed: $(cat "$work/report.stderr")"
check_complete stress_fork "$work/report.json"
# Per round: the fork that execs (its image until the exec, then /bin/true's
# image with the same pid) and the fork that _exits. Counted by program, as
# whether env's own short image is kept is not this test's business.
check_eq "forked images" $((2 * rounds)) \
	"$(jq --arg p "$prog" '[.processes[] | select(.argv[0] == $p and .origin == "fork")] | length' \
		"$work/report.json")"
check_eq "stress_fork's own image" 1 \
	"$(jq --arg p "$prog" '[.processes[] | select(.argv[0] == $p and .origin != "fork")] | length' \
		"$work/report.json")"
check_eq "images of /bin/true" "$rounds" \
	"$(jq '[.processes[] | select(.argv == ["true"])] | length' "$work/report.json")"
finish
