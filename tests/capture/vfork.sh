# vfork.sh: a program that runs commands with vfork (dash does) keeps its
# own image: the vfork child shares the parent's memory until it execs, so
# its exec (and the _exit of a failed one) must not end the parent's image.
# They did: the shell's image got an END per command, and every call after
# it was written as a block of its own. With an environment too large for
# the hook's 2 KiB on the stack (300 entries), a vfork child's exec still
# carries the run, even where the script unset LD_PRELOAD: it went on as
# the program made it, and each command started a run of its own, which
# truncated the trace file (or, without LD_PRELOAD, ran untraced).
#
# usage: bash vfork.sh PRELOAD REPORT WORKDIR
. "$(dirname "$0")/../lib.sh"

[ $# -eq 3 ] || fail "usage: vfork.sh PRELOAD REPORT WORKDIR"
preload=$1 report=$2 work=$3
fresh_dir "$work"
runs=20

# dash (Debian's sh) runs each simple command with vfork and ends with
# _exit; /nonexistent fails to exec and its vfork child _exits.
script="i=0; while [ \$i -lt $runs ]; do i=\$((i+1)); /bin/true; done; /nonexistent 2>/dev/null; exit 3"
set +e
GITTRACE_OUTPUT="$work/trace.zst" GITTRACE_FLUSH_INTERVAL_MS=3600000 \
	run_traced "$preload" sh -c "$script"
status=$?
set -e
check_eq "the shell's exit status" 3 "$status"
"$report" --json "$work/trace.zst" >"$work/report.json"
"$report" --dump "$work/trace.zst" >"$work/dump.txt"
root=$(jq -r '.processes[] | select(.origin == "root") | .image_id' "$work/report.json")
check_eq "END records of the shell's image" 1 \
	"$(grep -c "^image=$root .* END " "$work/dump.txt" || true)"
check_eq "the shell's END is its exit" "reason=_exit status=3" \
	"$(grep "^image=$root .* END " "$work/dump.txt" | grep -o 'reason=[a-z_]* status=[0-9-]*')"
check_eq "images of /bin/true" "$runs" \
	"$(jq '[.processes[] | select(.argv == ["/bin/true"])] | length' "$work/report.json")"
check_eq "trace complete" true "$(jq .trace.complete "$work/report.json")"
# Blocks: each image writes one at its start and one at its end, no more.
check_eq "blocks" "$((2 * (runs + 1)))" "$(jq .trace.blocks "$work/report.json")"

big_env=()
for i in $(seq 300); do big_env+=("GITTRACE_TEST_FILLER_$i=x"); done
env "${big_env[@]}" GITTRACE_OUTPUT="$work/big_env.zst" LD_PRELOAD="$preload" \
	sh -c '/bin/true; /bin/true; unset LD_PRELOAD; /bin/true'
"$report" --json "$work/big_env.zst" >"$work/big_env.json"
check_eq "large environment: trace complete" true "$(jq .trace.complete "$work/big_env.json")"
check_eq "large environment: the shell and its three commands, in one run" "exec exec exec root" \
	"$(jq -r '[.processes[].origin] | sort | join(" ")' "$work/big_env.json")"
finish
