#!/bin/bash
# A trace cut inside its last block (as a killed run leaves it; see
# tests/cli/truncate.sh): the replay warns once, in one line, and replays
# the complete part: the calls the report counts in the same cut trace.
# Usage: cut.sh PRELOAD REPORT REPLAY ALLOC WORK PROG [ARGS...]
preload=$1 report=$2 replay=$3 alloc=$4 work=$5
shift 5
. "$(dirname "$0")/lib.sh"
fresh_dir "$work"
record "$work/trace.zst" "$@"
last=$("$report" --dump "$work/trace.zst" | sed -n 's/.* BLOCK offset=\([0-9]*\) .*/\1/p' | tail -n1)
[ -n "$last" ] && [ "$last" -gt 0 ] || fail "the trace has a single block: nothing to cut after"
size=$(stat -c %s "$work/trace.zst")
head -c $(((last + size) / 2)) "$work/trace.zst" >"$work/cut.zst"

run_status "$work/cut" "$replay" --rounds 1 --alloc "$alloc" "$work/cut.zst"
check_eq "exit status" 0 "$(cat "$work/cut.status")"
check_eq "stderr lines" 1 "$(wc -l <"$work/cut.stderr")"
check_grep "the cut is a warning" '^gittrace-replay: warning: trace cut short at offset '"$last"': ' \
	"$work/cut.stderr"
check_counts cut "$work/cut.zst" "$work/cut.stdout"
finish
