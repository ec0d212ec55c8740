#!/bin/bash
# bench/run.sh: gittrace's overhead and trace size against plain git and
# heaptrack, and gittrace-report's speed against heaptrack_print, side by side
# in one run. Prints a Markdown report (the tables in BENCHMARKS.md come from
# it). A benchmark, not a test: it judges nothing.
#
# Needs heaptrack and heaptrack_print (Debian: heaptrack, which
# scripts/install-deps.sh leaves out), jq, bc, zstd and /usr/bin/time.
#
# usage: bench/run.sh [-r ROUNDS] [-s SCALE | -R REPO] BUILD_DIR
#   BUILD_DIR  a CMake build of gittrace (preload/libgittrace.so and
#              analyzer/gittrace-report inside)
#   -r ROUNDS  rounds (default 5); each round runs every mode once, in an
#              order rotated from round to round, and each traced run is
#              compared with the plain run of its own round (paired ratios)
#   -s SCALE   on a generated demo repository (default scale 100;
#              examples/make-demo-repo.sh): git repack -adf (on a fresh copy each run) and
#              git log --raw
#   -R REPO    on an existing repository (e.g. a bare clone of git.git):
#              git log --raw --all, and git pack-objects --revs --all
#              --stdout </dev/null, the child that git repack runs
set -euo pipefail
export LC_ALL=C GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null

rounds=5 scale=100 repo=
while getopts r:s:R: opt; do
	case $opt in
	r) rounds=$OPTARG ;;
	s) scale=$OPTARG ;;
	R) repo=$(cd "$OPTARG" && pwd) ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || { echo "usage: bench/run.sh [-r ROUNDS] [-s SCALE | -R REPO] BUILD_DIR" >&2; exit 2; }
build=$(cd "$1" && pwd)
preload=$build/preload/libgittrace.so
report=$build/analyzer/gittrace-report
for tool in "$preload" "$report"; do
	[ -e "$tool" ] || { echo "bench/run.sh: '$tool' is missing: build first" >&2; exit 1; }
done
for tool in git heaptrack heaptrack_print /usr/bin/time jq bc zstd; do
	command -v "$tool" >/dev/null || { echo "bench/run.sh: '$tool' is missing" >&2; exit 1; }
done
here=$(cd "$(dirname "$0")" && pwd)

work=$(mktemp -d "${TMPDIR:-/tmp}/gittrace-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
export GITTRACE_DEBUG_CACHE=$work/debug-cache

modes=(plain counting stacks heaptrack)
run=() # the words mode_command sets
if [ -n "$repo" ]; then
	commands=("log --raw --all" "pack-objects --revs --all --stdout")
else
	sh "$here/../examples/make-demo-repo.sh" "$work/demo" "$scale"
	repo=$work/demo
	commands=("repack -adf" "log --raw")
fi

# mode_command MODE OUT: sets run to the words that start a command in MODE,
# its trace written to OUT.
mode_command() {
	case $1 in
	plain) run=() ;;
	counting) run=(env GITTRACE_OUTPUT="$2" GITTRACE_STACK_DEPTH=0 LD_PRELOAD="$preload") ;;
	stacks) run=(env GITTRACE_OUTPUT="$2" LD_PRELOAD="$preload") ;;
	heaptrack) run=(heaptrack -o "$2") ;;
	raw) run=(heaptrack --raw -o "$2") ;; # the analysis's first half left out
	esac
}

# run_one MODE CMD OUT: runs git CMD in MODE, stdin and stdout /dev/null;
# prints wall and CPU (user + system) seconds. The repack runs on a fresh
# copy of the repository (copied before the clock starts).
run_one() {
	local mode=$1 cmd=$2 out=$3 dir=$repo
	if [ "$cmd" = "repack -adf" ]; then
		rm -rf "$work/copy"
		cp -a "$repo" "$work/copy"
		dir=$work/copy
	fi
	rm -f "$out" "$out".*
	mode_command "$mode" "$out"
	# shellcheck disable=SC2086 # cmd holds whole words
	/usr/bin/time -o "$work/time" -f '%e %U %S' "${run[@]}" git -C "$dir" $cmd </dev/null >/dev/null 2>&1
	awk '{ printf "%s %.2f\n", $1, $2 + $3 }' "$work/time"
}

median() {
	sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# cpu_speeds: the seconds one fixed shell loop takes pinned to each CPU
# this run may use. A virtual machine's CPUs can differ in speed for hours
# (the host's other load): then a run's time depends on the CPU it lands
# on, and per-round ratios spread.
cpu_speeds() {
	command -v taskset >/dev/null || { echo "not measured (no taskset)"; return; }
	local list out='' range c
	list=$(awk '/^Cpus_allowed_list/ { print $2 }' /proc/self/status)
	for range in ${list//,/ }; do
		for ((c = ${range%-*}; c <= ${range#*-}; c++)); do
			/usr/bin/time -o "$work/time" -f %e taskset -c "$c" \
				bash -c 'for ((i = 0; i < 300000; i++)); do :; done'
			out+="${out:+, }CPU $c $(cat "$work/time") s"
		done
	done
	echo "$out"
}

echo "# gittrace benchmark"
echo
echo "$(date -u +%Y-%m-%d), $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')),"
echo "load average $(cut -d' ' -f1-3 /proc/loadavg) at the start,"
echo "a fixed loop on each CPU: $(cpu_speeds),"
echo "$(git --version), heaptrack $(heaptrack --version 2>/dev/null | awk '{print $NF}'),"
echo "repository: $(git -C "$repo" count-objects -v | awk '/in-pack/ {print $2}') objects,"
echo "pack $(git -C "$repo" count-objects -v | awk '/size-pack/ {print $2}') KiB; $rounds rounds, modes rotated."
echo

for cmd in "${commands[@]}"; do
	key=${cmd%% *}
	for ((r = 0; r < rounds; r++)); do
		for ((m = 0; m < ${#modes[@]}; m++)); do
			mode=${modes[$(((m + r) % ${#modes[@]}))]}
			echo "$r $(run_one "$mode" "$cmd" "$work/$key.$mode")" >>"$work/times.$key.$mode"
		done
	done
done

# paired COLUMN KEY MODE: the median over rounds of MODE's time ÷ plain's
# time in the same round (COLUMN 2: wall, 3: CPU).
paired() {
	paste -d' ' "$work/times.$2.$3" "$work/times.$2.plain" |
		awk -v c="$1" '{ print $c / $(c + 3) }' | median
}

echo "## Run time (paired ratios to plain git: the median over rounds)"
echo
echo "heaptrack follows only the first process: on \`git repack -adf\` it records \`git repack\`'s"
echo "own few hundred calls, not the \`pack-objects\` child that does the work, so its repack"
echo "overhead is not comparable."
echo
declare -A r
echo "| command | time | plain git | gittrace counting | gittrace stacks | heaptrack | stacks overhead ÷ heaptrack overhead |"
echo "|---|---|---|---|---|---|---|"
for cmd in "${commands[@]}"; do
	key=${cmd%% *}
	for col in 2 3; do
		name=$([ "$col" = 2 ] && echo wall || echo CPU)
		p=$(awk -v c="$col" '{ print $c }' "$work/times.$key.plain" | median)
		row="| git $cmd | $name | $p s"
		for mode in counting stacks heaptrack; do
			r[$col$mode]=$(paired "$col" "$key" "$mode")
			row="$row | $(printf '%.2f' "${r[$col$mode]}")×"
		done
		echo "$row | $(echo "${r[${col}stacks]} ${r[${col}heaptrack]}" | awk '{ printf "%.2f", ($1 - 1) / ($2 - 1) }') |"
	done
done
echo
echo "Per round (wall ratios to plain):"
echo
for cmd in "${commands[@]}"; do
	key=${cmd%% *}
	for mode in counting stacks heaptrack; do
		echo "- git $cmd, $mode: $(paste -d' ' "$work/times.$key.$mode" "$work/times.$key.plain" |
			awk '{ printf "%.2f ", $2 / $5 }')"
	done
done
echo

# A short command started many times: what tracing adds to each process's
# start and end, which a long command hides. git spawns processes by the
# dozen (a rebase, a test suite): as the run's first process (it also times
# the page cycle and truncates the trace file), and as a child of a traced
# shell. short_round MODE CHILDREN: the wall seconds of $short_runs runs.
short_cmd="rev-parse HEAD" short_runs=20
short_round() {
	local mode=$1 out=$work/short.$1 i t0
	(
		# Exported, not through env(1): its exec would count as tracing's.
		case $mode in
		counting) export GITTRACE_OUTPUT=$out GITTRACE_STACK_DEPTH=0 LD_PRELOAD=$preload ;;
		stacks) export GITTRACE_OUTPUT=$out LD_PRELOAD=$preload ;;
		esac
		t0=$EPOCHREALTIME
		if [ "$2" = children ]; then
			# shellcheck disable=SC2016 # expanded by the traced shell
			sh -c 'i=0; while [ $i -lt "$1" ]; do git -C "$2" $3 || exit; i=$((i + 1)); done' \
				sh "$short_runs" "$repo" "$short_cmd" </dev/null >/dev/null 2>&1
		elif [ "$mode" = heaptrack ]; then
			for ((i = 0; i < short_runs; i++)); do
				# shellcheck disable=SC2086 # short_cmd holds whole words
				heaptrack -o "$out" git -C "$repo" $short_cmd </dev/null >/dev/null 2>&1
			done
		else
			for ((i = 0; i < short_runs; i++)); do
				# shellcheck disable=SC2086 # short_cmd holds whole words
				git -C "$repo" $short_cmd </dev/null >/dev/null 2>&1
			done
		fi
		awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { print b - a }'
	)
}
short_modes=(plain counting stacks heaptrack)
for ((round = 0; round < rounds; round++)); do
	for ((m = 0; m < ${#short_modes[@]}; m++)); do
		mode=${short_modes[$(((m + round) % ${#short_modes[@]}))]}
		short_round "$mode" roots >>"$work/short.roots.$mode"
		# heaptrack follows the first process alone: the shell
		[ "$mode" = heaptrack ] || short_round "$mode" children >>"$work/short.children.$mode"
	done
done
# short_ms KIND MODE: ms per process (median over rounds) and, traced, the
# median of the rounds' differences from plain.
short_ms() {
	local per
	per=$(median <"$work/short.$1.$2" | awk -v n="$short_runs" '{ printf "%.2f", $1 * 1000 / n }')
	if [ "$2" = plain ]; then
		echo "$per ms"
	else
		echo "$per ms (+$(paste -d' ' "$work/short.$1.$2" "$work/short.$1.plain" |
			awk -v n="$short_runs" '{ print ($1 - $2) * 1000 / n }' | median | xargs printf '%.2f') ms)"
	fi
}
echo "## A short command: what tracing adds to each process"
echo
echo "\`git $short_cmd\`, $short_runs runs in a row per mode and round, modes rotated; wall ms per"
echo "run (the median over rounds), and in brackets what tracing added (the median of the"
echo "rounds' differences from plain git). \"run's first process\": each run is a root, which"
echo "also times the page cycle once (docs/report.md, heap refaults) and truncates the trace"
echo "file. \"child of a traced shell\": \`sh -c\` runs the $short_runs in one traced run,"
echo "as git's own commands run their children; the shell's own start is in every mode's"
echo "time. heaptrack follows only the first process."
echo
echo "| process | plain git | gittrace counting | gittrace stacks | heaptrack |"
echo "|---|---|---|---|---|"
echo "| run's first process | $(short_ms roots plain) | $(short_ms roots counting) | $(short_ms roots stacks) | $(short_ms roots heaptrack) |"
echo "| child of a traced shell | $(short_ms children plain) | $(short_ms children counting) | $(short_ms children stacks) | not followed |"
echo

echo "## Trace bytes per allocating call (the last round's files)"
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

echo "## Analyzer speed (the last round's traces; best of 3 runs each)"
echo
echo "gittrace's events are its calls of every kind (frees and maps included);"
echo "heaptrack_print reports only allocating calls, though it reads the frees too."
echo "heaptrack's trace of a repack holds git repack's own calls only (see above)."
echo "gittrace-report keeps decompressed copies of the debug files it reads"
echo "(docs/report.md#symbols), here in a cache of the run's own, made by the first"
echo "report; the row \"GITTRACE_DEBUG_CACHE=0\" is the report with that cache off,"
echo "which inflates the compressed debug files (libc6-dbg's) every time, as every"
echo "report did before the cache."
echo
echo "heaptrack splits its analysis in two. While the program runs, heaptrack_interpret,"
echo "a second process, matches each free to its allocation and looks up the symbols"
echo "of every new stack frame; heaptrack_print then reads allocation indices and"
echo "names. gittrace-report does both from the trace. So the rows"
echo "\"heaptrack_interpret\" (run apart, on a \`heaptrack --raw\` recording of the same"
echo "command) and their sum with heaptrack_print are the same work as gittrace-report's."
echo
echo "| command | analyzer | events | seconds | CPU seconds | events/s | peak RSS |"
echo "|---|---|---|---|---|---|---|"
# best_of CMD...: the fastest of 3 runs: "seconds CPU-seconds peak-RSS-KiB".
best_of() {
	for _ in 1 2 3; do
		/usr/bin/time -o "$work/atime" -f '%e %U %S %M' "$@" >/dev/null 2>&1 || true
		awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' "$work/atime"
	done | sort -g | head -n 1
}
# row LABEL EVENTS SECS CPU RSS: one row of the table, the command's cell empty.
row() {
	echo "| | $1 | $2 | $3 | $4 | $(echo "${2%% *} / $3" | bc) | $5 KiB |"
}
sum() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a + b }'; }
interpret=$(dirname "$(readlink -f "$(command -v heaptrack_print)")")/../lib/heaptrack/libexec/heaptrack_interpret
for cmd in "${commands[@]}"; do
	key=${cmd%% *}
	f=$work/$key.stacks
	events=$("$report" --json "$f" | jq .trace.events)
	echo "| git $cmd | | | | | | |"
	read -r secs cpu rss <<<"$(best_of "$report" --json "$f")"
	row "gittrace-report --json" "$events" "$secs" "$cpu" "$rss"
	read -r secs cpu rss <<<"$(best_of "$report" "$f")"
	row "gittrace-report (text)" "$events" "$secs" "$cpu" "$rss"
	read -r secs cpu rss <<<"$(best_of env GITTRACE_DEBUG_CACHE=0 "$report" --json "$f")"
	row "gittrace-report --json, GITTRACE_DEBUG_CACHE=0" "$events" "$secs" "$cpu" "$rss"
	hf=$(ls "$work/$key.heaptrack".* | head -n 1)
	hcalls=$(awk '/^calls to allocation functions:/ {print $5}' "$work/$key.hp.txt")
	read -r psecs pcpu prss <<<"$(best_of heaptrack_print "$hf")"
	row heaptrack_print "$hcalls allocating calls" "$psecs" "$pcpu" "$prss"
	[ -x "$interpret" ] || { echo "| | heaptrack_interpret: not found ($interpret) | | | | | |"; continue; }
	run_one raw "$cmd" "$work/$key.htraw" >/dev/null
	zstd -q -d -c "$(ls "$work/$key.htraw".* | head -n 1)" >"$work/$key.htraw.txt"
	read -r isecs icpu irss <<<"$(best_of sh -c '"$1" <"$2"' sh "$interpret" "$work/$key.htraw.txt")"
	row "heaptrack_interpret (a \`--raw\` recording)" "$hcalls allocating calls" "$isecs" "$icpu" "$irss"
	row "heaptrack_interpret + heaptrack_print" "$hcalls allocating calls" \
		"$(sum "$isecs" "$psecs")" "$(sum "$icpu" "$pcpu")" "$((irss > prss ? irss : prss))"
	rm -f "$work/$key.htraw"*
done
