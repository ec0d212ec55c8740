# frees_after_end.sh: calls after the tracer's END record count against
# the blocks they free. A library the program needs is finalized after the
# preload, so its destructor's frees come after END, each in a block of its
# own (the stream writes every record at once after END): more blocks than
# the analyzer waits for before it retires an ended image
# (GT_RETIRE_AFTER_BLOCKS). A C++ program's libraries do this with their
# static objects; the analyzer once retired the image first and reported
# those blocks leaked and their frees untracked.
#
# usage: bash frees_after_end.sh PRELOAD REPORT FREES_AFTER_END WORKDIR
. "$(dirname "$0")/../lib.sh"

[ $# -eq 4 ] || fail "usage: frees_after_end.sh PRELOAD REPORT FREES_AFTER_END WORKDIR"
preload=$1 report=$2 prog=$3 work=$4
fresh_dir "$work"
blocks=300 # GT_TEST_BLOCKS_AFTER_END (tests/progs/frees_after_end.h)

status=0
GITTRACE_OUTPUT="$work/trace.zst" run_traced "$preload" "$prog" || status=$?
check_eq "exit status" 0 "$status"

# The case itself: the library's frees after END, in more blocks than the
# analyzer waits (64).
"$report" --dump "$work/trace.zst" >"$work/dump"
awk '/ END reason=/ { ended = 1 } ended && / BLOCK / { b++ } ended && / CALL fn=free / { f++ }
	END { print f + 0, b + 0 }' "$work/dump" >"$work/after_end"
read -r frees after_blocks <"$work/after_end"
check_eq "frees after END" "$blocks" "$frees"
[ "$after_blocks" -gt 64 ] || fail "only $after_blocks blocks after END: the case is not made"

# Every report counts them: no free untracked, no block of the library leaked.
"$report" --json --top=0 "$work/trace.zst" >"$work/report.json"
check_eq "untracked frees" 0 "$(jq '.totals.heap.untracked_frees' "$work/report.json")"
check_eq "leaked allocations of the library's constructor" 0 \
	"$(jq '[.processes[].sites[] | select(.function == "take") | .leaked_allocations] | add // 0' \
		"$work/report.json")"
check_eq "allocations of the library's constructor" "$blocks" \
	"$(jq '[.processes[].sites[] | select(.function == "take") | .allocations] | add // 0' \
		"$work/report.json")"
finish
