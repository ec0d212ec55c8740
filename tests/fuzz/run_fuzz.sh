#!/bin/sh
# Fuzzes gittrace-report for SECONDS with one process, from the seeds in
# WORK/seeds (make_seeds.sh); new inputs go to WORK/corpus, a crashing
# input to WORK/artifacts/. Exits non-zero if libFuzzer found anything.
# The analyzer's own one-line errors (stderr) are closed off: bad input is
# expected, only crashes, sanitizer reports and timeouts count.
# Usage: run_fuzz.sh FUZZER WORK SECONDS [LIBFUZZER_OPTION...]
set -eu
[ $# -ge 3 ] || { echo "usage: run_fuzz.sh FUZZER WORK SECONDS [OPTION...]" >&2; exit 2; }
fuzzer=$1 work=$2 seconds=$3
shift 3
[ -d "$work/seeds" ] || { echo "no seeds in $work/seeds: run make_seeds.sh" >&2; exit 1; }
mkdir -p "$work/corpus" "$work/artifacts"
exec "$fuzzer" -max_total_time="$seconds" -timeout=20 -close_fd_mask=2 -print_final_stats=1 \
	-artifact_prefix="$work/artifacts/" "$@" "$work/corpus" "$work/seeds"
