# vfork.sh: a program that runs commands with vfork (dash does) keeps its
# own image: the vfork child shares the parent's memory until it execs, so
# its exec (and the _exit of a failed one) must not end the parent's image.
# They did: the shell's image got an END per command, and every call after
# it was written as a block of its own.
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
finish
