#!/bin/bash
# bench/bound.sh: checks that gittrace's verdict bounds are honest. For several
# git workloads it takes the bound a traced run states (verdict
# allocator_time_share: "a perfect allocator could save at most X%") and
# measures, with gittrace-ab's paired rounds, what preloading mimalloc and
# jemalloc really saves; likewise the window bound (window_bound: map calls plus system time,
# or, with many small windows at once, the default-windows high end) of `git log
# --raw` with tiny pack windows against the saving of going back to git's
# default window settings. Prints a Markdown report (the table under "Is the
# bound honest?" in BENCHMARKS.md comes from it). A benchmark, not a test: it
# prints "no" when a bound does not hold and still exits 0.
#
# usage: bench/bound.sh [-s SCALE] DIR BUILD_DIR
#   DIR        a directory that does not exist yet: it receives the demo
#              repository, the traces and every JSON report, kept as evidence
#   BUILD_DIR  a CMake build of gittrace (launcher/gittrace, ab/gittrace-ab,
#              analyzer/gittrace-report, preload/libgittrace.so)
#   -s SCALE   demo repository scale (default 100; examples/make-demo-repo.sh)
#
# Saving = 1 - ratio, the ratio being gittrace-ab's geometric mean of paired
# (variant / baseline) wall or CPU times over 5 rounds; "CI best" = 1 - the
# 95% interval's low end, the largest saving the interval allows. A bound
# holds when it is >= the point estimate; whether it is also >= the CI's best
# end is printed next to it.
set -euo pipefail
export LC_ALL=C GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null

scale=100
while getopts s: opt; do
	case $opt in
	s) scale=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 2 ] || { echo "usage: bench/bound.sh [-s SCALE] DIR BUILD_DIR" >&2; exit 2; }
dir=$1
build=$(cd "$2" && pwd)
launcher=$build/launcher/gittrace
ab=$build/ab/gittrace-ab
report=$build/analyzer/gittrace-report
for tool in "$launcher" "$ab" "$report" "$build/preload/libgittrace.so"; do
	[ -e "$tool" ] || { echo "bench/bound.sh: '$tool' is missing: build first" >&2; exit 1; }
done
for tool in git jq; do
	command -v "$tool" >/dev/null || { echo "bench/bound.sh: '$tool' is missing" >&2; exit 1; }
done
[ ! -e "$dir" ] || { echo "bench/bound.sh: '$dir' already exists" >&2; exit 1; }
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
demo=$dir/demo.git
sh "$here/../examples/make-demo-repo.sh" "$demo" "$scale" >/dev/null

rounds=5
tiny='-c core.packedGitWindowSize=64k -c core.packedGitLimit=256k'

# Workloads: a key (file names) and a shell command run in the working
# directory; repack runs on a fresh copy of the demo repository (the
# template), the readers on the demo repository itself.
keys=(log rev-list cat-file repack)
declare -A cmds=(
	[log]="git log --raw"
	[rev-list]="git rev-list --objects --all"
	[cat-file]="git cat-file --batch-all-objects --batch"
	[repack]="git repack -adf"
)

# traced KEY CWD CMD...: one counting-mode traced run of CMD in CWD (its
# output thrown away, so that only the report is read), then the report.
traced() {
	local key=$1 cwd=$2
	shift 2
	(cd "$cwd" && "$launcher" --counting --no-report -o "$dir/$key.zst" -- "$@" >/dev/null)
	"$report" --json "$dir/$key.zst" >"$dir/$key.report.json"
}

for key in "${keys[@]}"; do
	read -ra argv <<<"${cmds[$key]}"
	if [ "$key" = repack ]; then
		cp -a "$demo" "$dir/repack-copy.git"
		traced "$key" "$dir/repack-copy.git" "${argv[@]}"
		rm -rf "$dir/repack-copy.git"
		"$ab" --json --no-progress --template "$demo" --rounds "$rounds" \
			--alloc system --alloc mimalloc --alloc jemalloc -- "${argv[@]}" >"$dir/$key.ab.json"
	else
		traced "$key" "$demo" "${argv[@]}"
		(cd "$demo" && "$ab" --json --no-progress --rounds "$rounds" \
			--alloc system --alloc mimalloc --alloc jemalloc -- "${argv[@]}") >"$dir/$key.ab.json"
	fi
done

# The window bound: tiny windows traced, then tiny (the baseline) against the
# unchanged command, so that the ratio is default / tiny.
read -ra tinyargv <<<"$tiny"
traced window "$demo" git "${tinyargv[@]}" log --raw
(cd "$demo" && "$ab" --json --no-progress --rounds "$rounds" \
	--variant "tiny=$tiny" --variant 'default=' -- git log --raw) >"$dir/window.ab.json"

# jq helpers: pct (a fraction as a percentage, 1 decimal); saving VARIANT
# (wall and CPU savings, point and CI best, of one variant); holds BOUND
# VARIANT (the bound against the larger of the wall and CPU savings).
jqdefs='
def pct: if . == null then "n/a" else (. * 1000 | round / 10 | tostring) + "%" end;
def sv(r): if r == null then null else {p: (1 - r.geomean), u: (1 - r.ci_low)} end;
def v(n): .variants[] | select(.name == n);
def saving(n): v(n) | (sv(.wall_ratio)) as $w | (sv(.cpu_ratio)) as $c |
	"wall \($w.p | pct) (CI best \($w.u | pct)), CPU \($c.p | pct) (CI best \($c.u | pct))";
def holds($b; n): v(n) | [sv(.wall_ratio), sv(.cpu_ratio)] as $s |
	(if $b >= ([$s[].p] | max) then "yes" else "**no**" end) + " (vs CI best: " +
	(if $b >= ([$s[].u] | max) then "yes" else "no" end) + ")";
'

echo "$(date -u +%Y-%m-%d), $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')),"
echo "$(git --version), demo repository scale $scale: $(git -C "$demo" count-objects -v | awk '/in-pack/ {print $2}') objects;"
echo "$rounds paired rounds per comparison (gittrace-ab, 1 warm-up), bounds from one counting-mode traced run."
echo
echo "| workload | allocator bound (X%) | mimalloc saves | jemalloc saves | bound holds? (mimalloc; jemalloc) |"
echo "|---|---|---|---|---|"
for key in "${keys[@]}"; do
	bound=$(jq '.verdict.allocator_time_share' "$dir/$key.report.json")
	wall=$(jq '.verdict.shares_of_wall_time // false' "$dir/$key.report.json")
	[ "$wall" = true ] && note=" (share of wall time)" || note=
	jq -r --argjson b "$bound" --arg cmd "${cmds[$key]}" --arg note "$note" "$jqdefs"'
		"| `\($cmd)` | \($b | pct)\($note) | \(saving("mimalloc")) | \(saving("jemalloc")) | \(holds($b; "mimalloc")); \(holds($b; "jemalloc")) |"' \
		"$dir/$key.ab.json"
done
echo
echo "| workload | map bound (X%) | default windows save | bound holds? |"
echo "|---|---|---|---|"
bound=$(jq '.verdict.window_bound' "$dir/window.report.json")
jq -r --argjson b "$bound" --arg tiny "$tiny" "$jqdefs"'
	"| `git \($tiny) log --raw` → defaults | \($b | pct) | \(saving("default")) | \(holds($b; "default")) |"' \
	"$dir/window.ab.json"
echo
echo "Verdict classes of the traced runs:"
for key in "${keys[@]}" window; do
	echo "- $key: $(jq -r '.verdict.class' "$dir/$key.report.json"), allocator share $(jq -r '.verdict.allocator_time_share' "$dir/$key.report.json"), map share $(jq -r '.verdict.mmap_time_share' "$dir/$key.report.json")"
done
echo
echo "gittrace-ab conclusions (wall time):"
for key in "${keys[@]}" window; do
	jq -r --arg k "$key" '.seed as $s | .variants[] | select(.conclusion != null) |
		"- \($k): \(.conclusion) (seed \($s))"' "$dir/$key.ab.json"
done
