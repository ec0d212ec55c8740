# big_blocks.sh: a trace whose blocks hold more calls than the analyzer's
# ring of decoded batches (8 × 2048), so that its decoding thread fills the
# ring and waits many times within each block (analyzer/read/decoder.c).
# What the reading finds after them must come at its place: every call of
# the blocks before a torn tail, then its warning (exit 0); every block
# before bytes that are no block, then the one-line error (exit 1). Counts
# are checked against --dump, which decodes in line, on the main thread.
#
# usage: bash big_blocks.sh PRELOAD REPORT ALLOC_CHURN WORKDIR
. "$(dirname "$0")/../lib.sh"

[ $# -eq 4 ] || fail "usage: big_blocks.sh PRELOAD REPORT ALLOC_CHURN WORKDIR"
preload=$1 report=$2 prog=$3 work=$4
fresh_dir "$work"

# Counting mode: about 1.2 M calls in blocks of ~250,000.
GITTRACE_OUTPUT=$work/full.zst GITTRACE_STACK_DEPTH=0 \
	run_status "$work/run" run_traced "$preload" "$prog" 300000
check_eq "alloc-churn's exit status" 0 "$(cat "$work/run.status")"
"$report" --dump "$work/full.zst" >"$work/full.dump"
# offsets and CALL records per block, in file order
awk '/ BLOCK / { n++; sub(/.*offset=/, ""); off[n] = $1 }
	/ CALL / { calls[n]++ }
	END { for (i = 1; i <= n; i++) print off[i], calls[i] + 0 }' "$work/full.dump" >"$work/blocks"
big=$(awk '$2 > 8 * 2048' "$work/blocks" | wc -l)
[ "$big" -ge 3 ] || fail "want 3 blocks of more than 16384 calls at least: $(cat "$work/blocks")"

# events FILE: the report's count of calls, its stderr in FILE.err.
events() {
	"$report" --json "$1" 2>"$1.err" | jq .trace.events
}

check_eq "whole: every call" "$(grep -c ' CALL ' "$work/full.dump")" "$(events "$work/full.zst")"
check_eq "whole: no message" "" "$(cat "$work/full.zst.err")"

# The last big block cut in its middle: the calls of those before it.
read -r last_big next <<<"$(awk '$2 > 8 * 2048 { b = NR } END { print b, b + 1 }' "$work/blocks")"
last_off=$(sed -n "${last_big}p" "$work/blocks" | cut -d' ' -f1)
next_off=$(sed -n "${next}p" "$work/blocks" | cut -d' ' -f1)
[ -n "$next_off" ] || next_off=$(stat -c %s "$work/full.zst")
head -c $(((last_off + next_off) / 2)) "$work/full.zst" >"$work/torn.zst"
before=$(head -n $((last_big - 1)) "$work/blocks" | awk '{ n += $2 } END { print n }')
check_eq "torn: the calls of every block before the cut" "$before" "$(events "$work/torn.zst")"
check_grep "torn: the warning, alone" "^gittrace-report: warning: trace cut short at offset $last_off: " \
	"$work/torn.zst.err"
check_eq "torn: one line" 1 "$(wc -l <"$work/torn.zst.err")"

# Bytes that are no block after the third block: one line, exit 1.
fourth=$(sed -n 4p "$work/blocks" | cut -d' ' -f1)
{
	head -c "$fourth" "$work/full.zst"
	printf 'these bytes are no block of a trace'
} >"$work/junk.zst"
status=0
"$report" --json "$work/junk.zst" >/dev/null 2>"$work/junk.err" || status=$?
check_eq "junk: exit status" 1 "$status"
check_eq "junk: the error, alone" "gittrace-report: corrupt trace: no block header at offset $fourth" \
	"$(cat "$work/junk.err")"
finish
