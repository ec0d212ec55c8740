#!/bin/sh
# Builds the fuzzer's seed corpus in WORK/seeds from real traces: known_calls
# traced by the preload (with stacks, and in counting mode), the CLI tests'
# make_trace output and the bad inputs derived from it, and the sample trace
# of every format version kept in tests/data.
# Usage: make_seeds.sh PRELOAD KNOWN_CALLS CLI_WORK DATA_DIR WORK
set -eu
[ $# -eq 5 ] || { echo "usage: make_seeds.sh PRELOAD KNOWN_CALLS CLI_WORK DATA_DIR WORK" >&2; exit 2; }
preload=$1 prog=$2 cli_work=$3 data=$4 work=$5
seeds=$work/seeds
rm -rf "$seeds" "$work/run"
mkdir -p "$seeds"

# 64k blocks: the mutator decompresses a block's records only up to 64 KiB.
for depth in 32 0; do
	GITTRACE_OUTPUT=$seeds/known_calls-depth$depth.zst GITTRACE_STACK_DEPTH=$depth \
		GITTRACE_BUFFER_SIZE=64k LD_PRELOAD="${LD_PRELOAD:+$LD_PRELOAD:}$preload" \
		"$prog" "$work/run" >/dev/null
	rm -rf "$work/run"
	[ -s "$seeds/known_calls-depth$depth.zst" ] ||
		{ echo "no trace from known_calls at depth $depth" >&2; exit 1; }
done
for f in "$cli_work"/*.zst "$data"/*.zst; do
	cp "$f" "$seeds/$(basename "$(dirname "$f")")-$(basename "$f")"
done
[ -s "$seeds/work-good.zst" ] || { echo "no make_trace output in $cli_work" >&2; exit 1; }
echo "$(ls "$seeds" | wc -l) seeds in $seeds:"
ls -l "$seeds"
