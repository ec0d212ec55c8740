#!/bin/bash
# bench/instructions.sh: what the tracer adds to a git command in instructions,
# counted by callgrind: plain, counting mode (GITTRACE_STACK_DEPTH=0) and full
# stacks, once each. Prints the totals, the instructions each hooked call
# adds, and where the tracer's own go (by library, then its 12 heaviest
# functions). A benchmark, not a test: it judges nothing.
#
# Why: on this project's machines wall time moves by more between two CPUs,
# or two runs, than a change to the hot path does (docs/capture-cost.md,
# sections 0.17 and 0.19); an instruction count is the same on every run.
# It is not the time: it leaves out what cache misses, page faults and the
# clock cost (the live address slot, a new block's first touch), which
# bench/capture_time.sh and bench/run.sh measure. callgrind runs the
# process's threads one at a time, so a count includes every thread.
#
# usage: bench/instructions.sh BUILD_DIR REPO [GIT ARGS...]
#   default GIT ARGS: log --raw -n 3000 (about 2 G instructions, a minute
#   each under callgrind)
# Needs valgrind and jq.
set -euo pipefail
export LC_ALL=C GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
[ $# -ge 2 ] || { echo "usage: bench/instructions.sh BUILD_DIR REPO [GIT ARGS...]" >&2; exit 2; }
build=$(cd "$1" && pwd)
repo=$2
shift 2
[ $# -gt 0 ] || set -- log --raw -n 3000
preload=$build/preload/libgittrace.so
report=$build/analyzer/gittrace-report
for tool in "$preload" "$report"; do
	[ -e "$tool" ] || { echo "bench/instructions.sh: '$tool' is missing: build first" >&2; exit 1; }
done
for tool in valgrind callgrind_annotate jq; do
	command -v "$tool" >/dev/null || { echo "bench/instructions.sh: '$tool' is missing" >&2; exit 1; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/gittrace-ir.XXXXXX")
trap 'rm -rf "$work"' EXIT
export GITTRACE_DEBUG_CACHE=$work/debug-cache # the report's, for the counts

# run MODE: the command under callgrind, its profile in $work/MODE.out; the
# preload goes in through the environment, which valgrind hands to git.
run() {
	local mode=$1
	local -a env=()
	case $mode in
	counting) env=("GITTRACE_OUTPUT=$work/$mode.zst" GITTRACE_STACK_DEPTH=0 "LD_PRELOAD=$preload") ;;
	stacks) env=("GITTRACE_OUTPUT=$work/$mode.zst" "LD_PRELOAD=$preload") ;;
	esac
	env "${env[@]}" valgrind --tool=callgrind --callgrind-out-file="$work/$mode.out" \
		git -C "$repo" "${args[@]}" >/dev/null 2>"$work/$mode.log" ||
		{ echo "bench/instructions.sh: the $mode run failed (see below)" >&2; cat "$work/$mode.log" >&2; exit 1; }
}
# total MODE: the instructions of the whole run.
total() { awk '/^totals:/ {print $2}' "$work/$1.out"; }

args=("$@")
modes=(plain counting stacks)
for mode in "${modes[@]}"; do
	run "$mode"
done
plain=$(total plain)

echo "# Instructions: git ${args[*]}"
echo
echo "callgrind (valgrind $(valgrind --version | sed 's/valgrind-//')), $(git --version), on $repo."
echo "Calls: the events of the mode's trace (every hooked call, and the tracer's own records)."
echo
echo "| mode | instructions | added | added per call | calls |"
echo "|---|---|---|---|---|"
printf '| plain | %d | | | |\n' "$plain"
for mode in counting stacks; do
	ir=$(total "$mode")
	calls=$("$report" --json "$work/$mode.zst" | jq .trace.events)
	printf '| %s | %d | %+.1f%% | %d | %d |\n' "$mode" "$ir" \
		"$(echo "($ir - $plain) * 100 / $plain" | bc -l)" "$(((ir - plain) / calls))" "$calls"
done

# Self instructions by function, "IR<TAB>function<TAB>object", from the
# annotated profile's "IR (P%)  file:function [object]" lines.
by_function() {
	callgrind_annotate --threshold=100 "$work/$1.out" 2>/dev/null |
		sed -n 's/^ *\([0-9,]*\) ([^)]*) *\(.*\) \[\(.*\)\]$/\1\t\2\t\3/p' | tr -d ,
}
by_function plain >"$work/plain.fn"
for mode in counting stacks; do
	by_function "$mode" >"$work/$mode.fn"
	echo
	echo "## $mode: the tracer's libraries, and libc's change"
	echo
	echo "| object | instructions | per call |"
	echo "|---|---|---|"
	calls=$("$report" --json "$work/$mode.zst" | jq .trace.events)
	for obj in libgittrace libunwind libzstd; do
		awk -F'\t' -v o="$obj" -v c="$calls" 'index($3, o) {s += $1}
			END {printf "| %s | %d | %.0f |\n", o, s, s / c}' "$work/$mode.fn"
	done
	awk -F'\t' -v c="$calls" 'FNR == NR {if (index($3, "libc.so")) p += $1; next}
		index($3, "libc.so") {s += $1}
		END {printf "| libc (traced − plain) | %+d | %+.0f |\n", s - p, (s - p) / c}' \
		"$work/plain.fn" "$work/$mode.fn"
	echo
	echo "Heaviest functions of libgittrace (self):"
	echo
	echo "| function | instructions | per call |"
	echo "|---|---|---|"
	awk -F'\t' -v c="$calls" 'index($3, "libgittrace") {sub(/.*\//, "", $2); printf "| %s | %d | %.1f |\n", $2, $1, $1 / c}' \
		"$work/$mode.fn" | sort -t'|' -k3,3nr | head -n 12
done
