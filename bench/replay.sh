#!/bin/bash
# bench/replay.sh: does the replay predict? For a set of workloads it
# records one trace (gittrace --counting), replays it against mimalloc and
# jemalloc (gittrace replay --json), measures the same remedies on the real
# command (gittrace ab --json, paired rounds), and prints a Markdown table
# of predicted against measured changes (the one under "Does the replay
# predict?" in BENCHMARKS.md comes from it). A benchmark, not a test: a
# wrong prediction is printed, and the script still exits 0.
#
# usage: bench/replay.sh [-r ROUNDS] [-w KEYS] [-t] OUTDIR [BUILD_DIR]
#   OUTDIR     receives the demo repository (OUTDIR/demo.git, made once) and
#              per workload KEY: KEY.zst (the trace), KEY.replay.json,
#              KEY.ab.json, KEY.load (load averages before and after); and
#              table.md
#   BUILD_DIR  a CMake build of gittrace (default: build/ next to bench/)
#   -r ROUNDS  rounds of the replay and of gittrace-ab (default 4; ab adds
#              one warm-up)
#   -w KEYS    only these workloads (comma-separated keys, below)
#   -t         run nothing: print the table of what OUTDIR holds
# Everything runs under nice.
#
# Workloads (KEY: command):
#   churn    examples/alloc-churn 1000000 (built here with gcc -O2)
#   log      git log --raw: on /tmp/git.git with -n 20000 when that bare
#            clone of git.git exists, else on the demo repository
#   pack     git pack-objects --revs --all --stdout --no-reuse-delta
#            --no-use-bitmap-index --threads=1 on the demo repository: the
#            delta search `git repack -adf` runs (without the two options,
#            the demo repository's bitmap lets pack-objects send its pack
#            almost verbatim: ~1,000 allocating calls in 0.05 s)
#   threads  the same with --threads=2 (the delta search in two threads)
#   tiny     examples/workloads/log-tiny-windows.sh (window 68k, limit 256k;
#            window-bound) on a copy of the demo repository
#
# Predicted change: the replay's, per allocator: the sum over the trace's
# images of (allocator's median replay CPU seconds - the system
# allocator's), divided by the untraced run's CPU time (median user + sys
# of gittrace-ab's system runs); beside it, the replay's own
# predicted_run_change of the image with the most calls (divided by the
# traced image's CPU time instead). Measured change: gittrace-ab's
# geometric mean of paired CPU-time ratios minus 1, with its 95% interval,
# and the same of wall time.
# shellcheck disable=SC2016 # the jq programs are single-quoted on purpose
set -euo pipefail
export LC_ALL=C GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
unset GIT_DIR GIT_WORK_TREE MALLOC_PERTURB_ LD_PRELOAD 2>/dev/null || true

usage() {
	echo "usage: bench/replay.sh [-r ROUNDS] [-w KEYS] [-t] OUTDIR [BUILD_DIR]" >&2
	exit 2
}

all_keys=(churn log pack threads tiny)
rounds=4 only='' table_only=''
while getopts r:w:t opt; do
	case $opt in
	r) rounds=$OPTARG ;;
	w) only=$OPTARG ;;
	t) table_only=1 ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
if [ $# -lt 1 ] || [ $# -gt 2 ]; then usage; fi
case $rounds in '' | *[!0-9]* | 0 | 1) usage ;; esac
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
build=$(cd "${2:-$src/build}" && pwd)
launcher=$build/launcher/gittrace
for tool in "$launcher" "$build/replay/gittrace-replay" "$build/ab/gittrace-ab"; do
	[ -e "$tool" ] || { echo "bench/replay.sh: '$tool' is missing: build first" >&2; exit 1; }
done
mkdir -p "$1"
dir=$(cd "$1" && pwd)
keys=("${all_keys[@]}")
[ -z "$only" ] || IFS=, read -ra keys <<<"$only"
[ -z "$table_only" ] || keys=()

log() { echo "bench/replay.sh: $*" >&2; }

demo=$dir/demo.git
if [ ${#keys[@]} -gt 0 ] && [ ! -e "$demo/.done" ]; then
	rm -rf "$demo"
	log "demo repository"
	nice sh "$src/examples/make-demo-repo.sh" "$demo" >/dev/null
	touch "$demo/.done"
fi
churn=$dir/alloc-churn
[ ${#keys[@]} -eq 0 ] || [ -x "$churn" ] || gcc -O2 -o "$churn" "$src/examples/alloc-churn.c"

# The command of workload KEY, as sh -c text (it redirects its own output).
command_of() {
	case $1 in
	churn) echo "'$churn' 1000000 >/dev/null" ;;
	log)
		if [ -d /tmp/git.git ]; then
			echo "git -C /tmp/git.git log --raw -n 20000 >/dev/null"
		else
			echo "git -C '$demo' log --raw >/dev/null"
		fi
		;;
	pack) echo "git -C '$demo' pack-objects --revs --all --stdout --no-reuse-delta --no-use-bitmap-index --threads=1 </dev/null >/dev/null" ;;
	threads) echo "git -C '$demo' pack-objects --revs --all --stdout --no-reuse-delta --no-use-bitmap-index --threads=2 </dev/null >/dev/null" ;;
	tiny) echo "sh '$src/examples/workloads/log-tiny-windows.sh' '$dir/tiny.git' >/dev/null" ;;
	*) echo "bench/replay.sh: unknown workload '$1'" >&2; exit 2 ;;
	esac
}

for key in "${keys[@]}"; do
	cmd=$(command_of "$key") || exit 2
	[ "$key" != tiny ] || { rm -rf "$dir/tiny.git"; cp -a "$demo" "$dir/tiny.git"; }
	cut -d' ' -f1-3 /proc/loadavg | tr '\n' ' ' >"$dir/$key.load"
	log "$key: trace"
	rm -f "$dir/$key.zst"
	nice "$launcher" -o "$dir/$key.zst" --no-report --counting -- sh -c "$cmd"
	log "$key: replay"
	nice "$build/replay/gittrace-replay" --json --rounds "$rounds" --alloc mimalloc \
		--alloc jemalloc "$dir/$key.zst" >"$dir/$key.replay.json"
	log "$key: gittrace ab"
	nice "$launcher" ab --json --no-progress --rounds "$rounds" --alloc system \
		--alloc mimalloc --alloc jemalloc -- sh -c "$cmd" >"$dir/$key.ab.json"
	cut -d' ' -f1-3 /proc/loadavg | tr '\n' ' ' >>"$dir/$key.load"
done

{
	echo "| workload | calls replayed | allocator | replay ratio, heaviest image (95% CI) | predicted: replay Δ ÷ untraced CPU | predicted_run_change (heaviest image) | measured CPU change (95% CI) | measured wall change (95% CI) | load before → after |"
	echo "|---|---|---|---|---|---|---|---|---|"
	for key in "${all_keys[@]}"; do
		[ -e "$dir/$key.ab.json" ] || continue
		for alloc in mimalloc jemalloc; do
			jq -r --arg key "$key" --arg alloc "$alloc" --arg load "$(cat "$dir/$key.load")" \
				--slurpfile ab "$dir/$key.ab.json" '
				def pct: if . == null then "?" else (. * 1000 | round / 10 | tostring) + "%" end;
				def sgn: if . == null then "?" elif . > 0 then "+" + (. | pct) else (. | pct) end;
				def r3: . * 1000 | round / 1000 | tostring;
				($ab[0].variants[] | select(.name == "system")) as $sys
				| ($ab[0].variants[] | select(.name == $alloc)) as $v
				| ($sys.metrics.user_s.median + $sys.metrics.sys_s.median) as $cpu
				| ([.images[] | (.allocators[] | select(.name == $alloc).seconds)
				    - (.allocators[] | select(.name == "system").seconds)] | add) as $delta
				| (.images | max_by(.calls)) as $heavy
				| ($heavy.allocators[] | select(.name == $alloc)) as $h
				| "| \($key) | \([.images[].calls] | add) | \($alloc) | \($h.ratio | r3) (\($h.ci_low | r3)–\($h.ci_high | r3)) | \($delta / $cpu | sgn) | \($h.predicted_run_change | sgn) | \($v.cpu_ratio.geomean - 1 | sgn) (\($v.cpu_ratio.ci_low - 1 | sgn) to \($v.cpu_ratio.ci_high - 1 | sgn)) | \($v.wall_ratio.geomean - 1 | sgn) (\($v.wall_ratio.ci_low - 1 | sgn) to \($v.wall_ratio.ci_high - 1 | sgn)) | \($load | split(" ") | "\(.[0]) → \(.[3])") |"' \
				"$dir/$key.replay.json"
		done
	done
} >"$dir/table.md"
cat "$dir/table.md"
