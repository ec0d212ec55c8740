# frees_after_end.sh: the image ends after the last finalizer. A library
# the program needs is finalized after the preload, as a C++ program's
# libraries and their static objects are. The preload ended the image in
# its own destructor, before that library's: the library's frees came
# after END, where the stream writes each record at once, a block each
# (5 µs and 100 bytes a call; a clang tool makes thousands). END now waits
# for an exit handler that runs after every finalizer. Checked: the 300
# frees are recorded before END, each matched; END has the exit status.
# (tests/data/frees-after-end-4.0.zst keeps a trace of the old order: the
# analyzer must still match its frees, cli.frees_after_end_4_0.)
#
# usage: bash frees_after_end.sh PRELOAD REPORT FREES_AFTER_END WORKDIR
. "$(dirname "$0")/../lib.sh"

[ $# -eq 4 ] || fail "usage: frees_after_end.sh PRELOAD REPORT FREES_AFTER_END WORKDIR"
preload=$1 report=$2 prog=$3 work=$4
fresh_dir "$work"
blocks=300 # GT_TEST_BLOCKS_AFTER_END (tests/progs/frees_after_end.h)

status=0
GITTRACE_OUTPUT="$work/trace.zst" run_traced "$preload" "$prog" || status=$?
check_eq "exit status (3: the library's blocks were taken)" 3 "$status"

"$report" --dump "$work/trace.zst" >"$work/dump"
awk '/ CALL fn=free / { if (ended) after++; else before++ } / END reason=/ { ended = 1 }
	END { print before + 0, after + 0 }' "$work/dump" >"$work/frees"
read -r before after <"$work/frees"
check_eq "frees before END" "$blocks" "$before"
check_eq "frees after END" 0 "$after"

"$report" --json --top=0 "$work/trace.zst" >"$work/report.json"
check_eq "exit status in END" 3 "$(jq '.processes[0].exit_status' "$work/report.json")"
check_eq "untracked frees" 0 "$(jq '.totals.heap.untracked_frees' "$work/report.json")"
check_eq "leaked allocations of the library's constructor" 0 \
	"$(jq '[.processes[].sites[] | select(.function == "take") | .leaked_allocations] | add // 0' \
		"$work/report.json")"
check_eq "allocations of the library's constructor" "$blocks" \
	"$(jq '[.processes[].sites[] | select(.function == "take") | .allocations] | add // 0' \
		"$work/report.json")"
finish
