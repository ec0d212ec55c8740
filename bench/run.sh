#!/bin/bash
# bench/run.sh: gittrace's overhead and trace size against plain git and
# heaptrack, and gittrace-report's speed against heaptrack_print, side by side
# in one run on a generated demo repository. Prints a Markdown report (the
# tables in BENCHMARKS.md come from it). A benchmark, not a test: it judges
# nothing.
#
# usage: bench/run.sh [-r REPS] [-s SCALE] BUILD_DIR
#   BUILD_DIR  a CMake build of gittrace (preload/libgittrace.so and
#              analyzer/gittrace-report inside)
#   -r REPS    repetitions of each (command, mode) pair (default 5); modes run
#              in rotated order within a repetition, and the median is kept
#   -s SCALE   demo repository scale (default 100: ~33,000 objects)
set -euo pipefail
export LC_ALL=C GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null

reps=5 scale=100
while getopts r:s: opt; do
	case $opt in
	r) reps=$OPTARG ;;
	s) scale=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || { echo "usage: bench/run.sh [-r REPS] [-s SCALE] BUILD_DIR" >&2; exit 2; }
build=$(cd "$1" && pwd)
preload=$build/preload/libgittrace.so
report=$build/analyzer/gittrace-report
for tool in "$preload" "$report"; do
	[ -e "$tool" ] || { echo "bench/run.sh: '$tool' is missing: build first" >&2; exit 1; }
done
for tool in git heaptrack heaptrack_print /usr/bin/time jq; do
	command -v "$tool" >/dev/null || { echo "bench/run.sh: '$tool' is missing" >&2; exit 1; }
done
here=$(cd "$(dirname "$0")" && pwd)

work=$(mktemp -d "${TMPDIR:-/tmp}/gittrace-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
sh "$here/../examples/make-demo-repo.sh" "$work/demo" "$scale"

modes=(plain counting stacks heaptrack)
commands=("repack -adf" "log --raw")

# run_one MODE CMD OUT: runs git CMD in MODE; prints wall seconds. The repack
# runs on a fresh copy of the demo repository (copied before the clock starts).
run_one() {
	local mode=$1 cmd=$2 out=$3 repo=$work/demo t0 t1
	if [ "$cmd" = "repack -adf" ]; then
		rm -rf "$work/copy"
		cp -a "$work/demo" "$work/copy"
		repo=$work/copy
	fi
	rm -f "$out" "$out".*
	t0=$(date +%s%N)
	case $mode in
	plain) git -C "$repo" $cmd >/dev/null 2>&1 ;;
	counting) GITTRACE_OUTPUT=$out GITTRACE_STACK_DEPTH=0 LD_PRELOAD=$preload \
		git -C "$repo" $cmd >/dev/null 2>&1 ;;
	stacks) GITTRACE_OUTPUT=$out LD_PRELOAD=$preload git -C "$repo" $cmd >/dev/null 2>&1 ;;
	heaptrack) heaptrack -o "$out" git -C "$repo" $cmd >/dev/null 2>&1 ;;
	esac
	t1=$(date +%s%N)
	echo "scale=3; ($t1 - $t0) / 1000000000" | bc
}

median() {
	sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

echo "# gittrace benchmark"
echo
echo "$(date -u +%Y-%m-%d), $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')),"
echo "$(git --version), heaptrack $(heaptrack --version 2>/dev/null | awk '{print $NF}'),"
echo "demo repository scale $scale: $(git -C "$work/demo" count-objects -v | awk '/in-pack/ {print $2}') objects,"
echo "pack $(git -C "$work/demo" count-objects -v | awk '/size-pack/ {print $2}') KiB; median of $reps repetitions, modes rotated."
echo

for cmd in "${commands[@]}"; do
	key=${cmd%% *}
	for ((r = 0; r < reps; r++)); do
		for ((m = 0; m < ${#modes[@]}; m++)); do
			mode=${modes[$(((m + r) % ${#modes[@]}))]}
			run_one "$mode" "$cmd" "$work/$key.$mode" >>"$work/times.$key.$mode"
		done
	done
done

echo "## Run time (wall seconds, ratio to plain git)"
echo
echo "heaptrack follows only the first process: on \`git repack -adf\` it records \`git repack\`'s"
echo "own few hundred calls, not the \`pack-objects\` child that does the work, so its repack"
echo "overhead is not comparable."
echo
echo "| command | plain git | gittrace counting | gittrace stacks | heaptrack | stacks overhead ÷ heaptrack overhead |"
echo "|---|---|---|---|---|---|"
for cmd in "${commands[@]}"; do
	key=${cmd%% *}
	declare -A med
	for mode in "${modes[@]}"; do
		med[$mode]=$(median <"$work/times.$key.$mode")
	done
	p=${med[plain]}
	ratio() { echo "scale=2; $1 / $p" | bc; }
	echo "| git $cmd | $p s | ${med[counting]} s ($(ratio "${med[counting]}")×) |" \
		"${med[stacks]} s ($(ratio "${med[stacks]}")×) | ${med[heaptrack]} s ($(ratio "${med[heaptrack]}")×) |" \
		"$(echo "scale=2; (${med[stacks]} - $p) / (${med[heaptrack]} - $p)" | bc) |"
done
echo

echo "## Trace bytes per allocating call (last repetition's files)"
echo
echo "Allocating calls: malloc, calloc, realloc and the aligned variants; heaptrack_print"
echo "prints only that number. Both files hold frees too; gittrace's also holds mmap/munmap,"
echo "timings and process records."
echo
echo "| command | gittrace counting | gittrace stacks | heaptrack |"
echo "|---|---|---|---|"
allocating='[.totals.calls | (.malloc, .calloc, .realloc, .reallocarray, .posix_memalign,
	.aligned_alloc, .memalign, .valloc, .pvalloc)] | add'
for cmd in "${commands[@]}"; do
	key=${cmd%% *}
	row="| git $cmd"
	for mode in counting stacks; do
		f=$work/$key.$mode
		calls=$("$report" --json --top 1 "$f" | jq "$allocating")
		size=$(stat -c %s "$f")
		row="$row | $(echo "scale=2; $size / $calls" | bc) B ($calls calls, $size B)"
	done
	hf=$(ls "$work/$key.heaptrack".* | head -n 1)
	heaptrack_print "$hf" >"$work/$key.hp.txt" 2>/dev/null || true
	hcalls=$(awk '/^calls to allocation functions:/ {print $5}' "$work/$key.hp.txt")
	hsize=$(stat -c %s "$hf")
	row="$row | $(echo "scale=2; $hsize / $hcalls" | bc) B ($hcalls calls, $hsize B) |"
	echo "$row"
done
echo

echo "## Analyzer speed (traces of git log --raw: gittrace with stacks, heaptrack)"
echo
echo "A single-process command, so both traces hold the same calls. Units differ: gittrace's"
echo "events are all its records (calls of every kind, stacks, modules); heaptrack_print reports"
echo "only allocating calls, so its rate below counts fewer events than it really reads."
echo
echo "| analyzer | events | seconds | events/s | peak RSS |"
echo "|---|---|---|---|---|"
f=$work/log.stacks
/usr/bin/time -v "$report" --json "$f" >"$work/r.json" 2>"$work/r.time"
events=$(jq .trace.events "$work/r.json")
secs=$(awk -F': ' '/Elapsed \(wall/ {n = split($2, t, ":"); print t[n - 1] * 60 + t[n]}' "$work/r.time")
rss=$(awk -F': ' '/Maximum resident/ {print $2}' "$work/r.time")
echo "| gittrace-report --json | $events | $secs | $(echo "$events / $secs" | bc) | $rss KiB |"
hf=$(ls "$work/log.heaptrack".* | head -n 1)
/usr/bin/time -v heaptrack_print "$hf" >"$work/h.txt" 2>"$work/h.time"
hcalls=$(awk '/^calls to allocation functions:/ {print $5}' "$work/h.txt")
secs=$(awk -F': ' '/Elapsed \(wall/ {n = split($2, t, ":"); print t[n - 1] * 60 + t[n]}' "$work/h.time")
rss=$(awk -F': ' '/Maximum resident/ {print $2}' "$work/h.time")
echo "| heaptrack_print | $hcalls allocating calls | $secs | $(echo "$hcalls / $secs" | bc) | $rss KiB |"
