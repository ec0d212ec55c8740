#!/bin/bash
# bench/capture_time.sh: paired run time of one git command plain, traced in
# counting mode (GITTRACE_STACK_DEPTH=0) and traced with full stacks, in
# interleaved rounds (the order rotates each round). Prints one TSV line per
# run (round, mode, wall s, user+sys s, trace bytes), then the medians and
# their ratios to plain. A benchmark, not a test: it judges nothing.
#
# usage: bench/capture_time.sh [-r ROUNDS] BUILD_DIR REPO [GIT ARGS...]
#   default GIT ARGS: log --raw -n 20000     default ROUNDS: 5
# Modes: set MODES (default "plain counting stacks"); also "heaptrack";
# env:NAME=VALUE, the full-stack trace with that variable set as well; and
# "alt", a full-stack trace with the preload at $ALT_PRELOAD (a prototype).
set -euo pipefail
export LC_ALL=C GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
rounds=5
while getopts r: opt; do
	case $opt in
	r) rounds=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 2 ] || { echo "usage: bench/capture_time.sh [-r ROUNDS] BUILD_DIR REPO [GIT ARGS...]" >&2; exit 2; }
preload=$(cd "$1" && pwd)/preload/libgittrace.so
repo=$2
shift 2
[ $# -gt 0 ] || set -- log --raw -n 20000
[ -e "$preload" ] || { echo "bench/capture_time.sh: '$preload' is missing: build first" >&2; exit 1; }
read -r -a modes <<<"${MODES:-plain counting stacks}"
work=$(mktemp -d "${TMPDIR:-/tmp}/gittrace-ct.XXXXXX")
trap 'rm -rf "$work"' EXIT

run() { # MODE: prints wall, cpu, trace bytes
	local mode=$1 out=$work/trace.zst
	shift
	rm -f "$out"
	local -a env=()
	case $mode in
	plain) ;;
	counting) env=(GITTRACE_OUTPUT=$out GITTRACE_STACK_DEPTH=0 LD_PRELOAD=$preload) ;;
	stacks) env=(GITTRACE_OUTPUT=$out LD_PRELOAD=$preload) ;;
	env:*) env=(GITTRACE_OUTPUT=$out LD_PRELOAD=$preload "${mode#env:}") ;;
	heaptrack) env=(heaptrack -o "$work/trace") ;;
	alt) env=(GITTRACE_OUTPUT=$out LD_PRELOAD=$ALT_PRELOAD) ;;
	esac
	/usr/bin/time -f '%e %U %S' -o "$work/time" env "${env[@]}" git -C "$repo" "$@" >/dev/null 2>&1
	for f in "$work"/trace.*; do # heaptrack names its file itself
		[ "$f" = "$out" ] || [ ! -e "$f" ] || mv "$f" "$out"
	done
	read -r e u s <"$work/time"
	echo "$e $(echo "$u + $s" | bc) $( [ -e "$out" ] && stat -c %s "$out" || echo 0)"
}

printf 'round\tmode\twall_s\tcpu_s\ttrace_bytes\n'
for ((r = 0; r < rounds; r++)); do
	for ((m = 0; m < ${#modes[@]}; m++)); do
		mode=${modes[$(((m + r) % ${#modes[@]}))]}
		read -r w c b < <(run "$mode" "$@")
		printf '%d\t%s\t%s\t%s\t%s\n' "$r" "$mode" "$w" "$c" "$b" | tee -a "$work/all.tsv"
	done
done
echo
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
pw=$(awk -F'\t' '$2 == "plain" {print $3}' "$work/all.tsv" | median)
pc=$(awk -F'\t' '$2 == "plain" {print $4}' "$work/all.tsv" | median)
printf '| mode | wall median | ratio | cpu median | ratio | paired wall ratios (per round) |\n|---|---|---|---|---|---|\n'
for mode in "${modes[@]}"; do
	w=$(awk -F'\t' -v m="$mode" '$2 == m {print $3}' "$work/all.tsv" | median)
	c=$(awk -F'\t' -v m="$mode" '$2 == m {print $4}' "$work/all.tsv" | median)
	paired=$(awk -F'\t' -v m="$mode" '$2 == "plain" {p[$1] = $3} $2 == m {t[$1] = $3}
		END {for (r in t) printf "%.2f ", t[r] / p[r]}' "$work/all.tsv")
	printf '| %s | %.2f s | %.2f× | %.2f s | %.2f× | %s|\n' "$mode" "$w" "$(echo "$w / $pw" | bc -l)" \
		"$c" "$(echo "$c / $pc" | bc -l)" "$paired"
done
