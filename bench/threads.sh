#!/bin/bash
# bench/threads.sh: what the preload costs threads that allocate at the same
# time (bench/alloc_threads.c, the worst case for the stream's one lock):
# plain, then traced in counting mode by each PRELOAD given (e.g. two builds
# to compare), for 1, 2 and 3 threads, in interleaved rounds (the order
# rotates each round). Prints one TSV line per run (round, threads, run,
# wall s, user s, sys s), then the median of each column per threads and
# run. A benchmark, not a test: it judges nothing.
#
# usage: bench/threads.sh [-r ROUNDS] PRELOAD...   default ROUNDS: 4
set -euo pipefail
export LC_ALL=C
rounds=4
while getopts r: opt; do
	case $opt in
	r) rounds=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { echo "usage: bench/threads.sh [-r ROUNDS] PRELOAD..." >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/gittrace-threads.XXXXXX")
trap 'rm -rf "$work"' EXIT
cc -O2 -std=gnu11 -pthread "$here/alloc_threads.c" -o "$work/alloc_threads"

run() { # THREADS PRELOAD|plain: prints wall, user, sys
	local -a cmd=(env)
	[ "$2" = plain ] || cmd+=(GITTRACE_OUTPUT="$work/trace.zst" GITTRACE_STACK_DEPTH=0 LD_PRELOAD="$2")
	rm -f "$work/trace.zst"
	/usr/bin/time -f '%e\t%U\t%S' -o "$work/time" "${cmd[@]}" "$work/alloc_threads" "$1" ||
		{ echo "bench/threads.sh: alloc_threads $1 failed ($2)" >&2; exit 1; }
	cat "$work/time"
}

printf 'round\tthreads\trun\twall\tuser\tsys\n'
runs=(plain "$@")
for round in $(seq "$rounds"); do
	for threads in 1 2 3; do
		# The order rotates each round: no run always goes first.
		for i in "${!runs[@]}"; do
			p=${runs[$(((i + round) % ${#runs[@]}))]}
			name=plain
			[ "$p" = plain ] || name=$(realpath "$p")
			printf '%s\t%s\t%s\t%s\n' "$round" "$threads" "$name" "$(run "$threads" "$p")"
		done
	done
done | tee "$work/runs.tsv"
echo
echo "medians (threads, run, wall, user, sys):"
awk -F'\t' '
	function median(s,   a, n, i, j, v) {
		n = split(s, a, " ")
		for (i = 2; i <= n; i++) { v = a[i]; for (j = i - 1; j >= 1 && a[j] > v; j--) a[j + 1] = a[j]; a[j + 1] = v }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	{ k = $2 "\t" $3; if (!(k in w)) order[++n] = k; w[k] = w[k] " " $4; u[k] = u[k] " " $5; s[k] = s[k] " " $6 }
	END { for (i = 1; i <= n; i++) { k = order[i]; printf "%s\t%.2f\t%.2f\t%.2f\n", k, median(w[k]), median(u[k]), median(s[k]) } }' "$work/runs.tsv"
