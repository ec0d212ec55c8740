# window_advice.sh: the window advice (docs/report.md, "Window advice")
# checked on git's behaviour, not on time. Each case traces git twice: a
# run with lowered pack-window settings must get advice to raise
# core.packedGitLimit, and the same command rerun with the advised -c
# settings must make no least-recently-used eviction in the report of the
# new run. The cases: the tiny-window example (examples/workloads/
# log-tiny-windows.sh: 64 KiB windows, a 256 KiB limit in the repository's
# config) and a repository of several packs (repack --max-pack-size) read
# with git's default window and a lowered limit. A run with git's defaults
# gets "no change".
#
# usage: bash window_advice.sh PRELOAD REPORT MAKE_DEMO WORKLOADS_DIR WORKDIR
. "$(dirname "$0")/../lib.sh"
use_git
clean_gittrace_env

[ $# -eq 5 ] || fail "usage: window_advice.sh PRELOAD REPORT MAKE_DEMO WORKLOADS_DIR WORKDIR"
preload=$1 report=$2 make_demo=$3 workloads=$4 work=$5
fresh_dir "$work"
# SCALE 40: a pack of ~2 MB, over a thousand pack maps with 64 KiB windows.
demo_repo "$make_demo" "$work/demo" 40

# trace NAME CMD...: runs CMD under the preload; its JSON report in NAME.json.
trace() {
	local name=$1
	shift
	GITTRACE_OUTPUT=$work/$name.zst run_traced "$preload" "$@" >/dev/null ||
		fail "$name: the traced command failed"
	"$report" --json --top 1 "$work/$name.zst" >"$work/$name.json" ||
		fail "$name: gittrace-report failed"
}

# The process with the most pack maps: the one the advice is about.
top='(.processes | max_by(.maps.by_kind.pack.mmaps) | .maps)'

# advised NAME: the run was evicting and got advice to raise the limit;
# sets config to its -c settings and settings to them as words, and
# advice to the advice.
advised() {
	local json=$work/$1.json
	advice=$(jq -c "$top.window_advice | del(.assumptions)" "$json")
	check_eq "$1: evictions recorded" true "$(jq "$top.packed_git_limit.evictions > 0" "$json")"
	check_eq "$1: advice" raise "$(jq -r "$top.window_advice.advice" "$json")"
	check_eq "$1: the advised limit holds the windows' peak, and that the lower estimate" true \
		"$(jq "$top.window_advice | .packed_git_limit_bytes >= .needed_bytes and
			.needed_bytes >= .least_bytes and .least_bytes > 0" "$json")"
	config=$(jq -r "$top.window_advice.git_config" "$json")
	read -ra settings <<<"$config"
}

# no_evictions NAME: no process of the run evicted a window, and each is
# advised no change; the pack bytes it mapped lie between the advice's
# lower estimate and the advised limit.
no_evictions() {
	local json=$work/$1.json
	check_eq "$1: evictions in the new run" 0 \
		"$(jq '[.processes[].maps.packed_git_limit.evictions] | add' "$json")"
	check_eq "$1: advice of the new run" '["no change"]' \
		"$(jq -c '[.processes[].maps.window_advice.advice] | unique' "$json")"
	check_eq "$1: pack maps in the new run" true "$(jq "$top.by_kind.pack.mmaps > 0" "$json")"
	# Without evictions, packed_git_limit.at_least is the peak of pack bytes mapped.
	echo "note: $1: peak pack bytes $(jq "$top.packed_git_limit.at_least" "$json"), advice $advice"
	check_eq "$1: least_bytes <= peak pack bytes <= the advised limit" true \
		"$(jq --argjson a "$advice" "$top.packed_git_limit.at_least as \$p |
			\$a.least_bytes <= \$p and \$p <= \$a.packed_git_limit_bytes" "$json")"
}

# Git's defaults: nothing to advise.
cp -a "$work/demo" "$work/defaults.repo"
trace defaults "$GIT" -C "$work/defaults.repo" log --raw
check_eq "defaults: advice" '["no change"]' \
	"$(jq -c '[.processes[].maps.window_advice.advice] | unique' "$work/defaults.json")"
check_eq "defaults: no advised setting" '[null]' \
	"$(jq -c '[.processes[].maps.window_advice.git_config] | unique' "$work/defaults.json")"

# The tiny-window example, then the same git command with the advice.
cp -a "$work/demo" "$work/tiny.repo"
trace tiny sh "$workloads/log-tiny-windows.sh" "$work/tiny.repo"
advised tiny
# The example sets 68k: git rounds it down to a multiple of two pages.
step=$((2 * $(getconf PAGESIZE)))
check_eq "tiny: the advice keeps the window" $((68 * 1024 / step * step)) \
	"$(jq "$top.window_advice.packed_git_window_size_bytes" "$work/tiny.json")"
trace tiny-advised "$GIT" -C "$work/tiny.repo" "${settings[@]}" log --raw
no_evictions tiny-advised
# The same advice in the text report and the HTML page.
"$report" "$work/tiny.zst" >"$work/tiny.txt" || fail "tiny: the text report failed"
check_grep "tiny: text report's window advice" "^  window advice: raise core.packedGitLimit" \
	"$work/tiny.txt"
"$report" --html "$work/tiny.html" "$work/tiny.zst" || fail "tiny: the HTML report failed"
check_eq "tiny: the HTML page names the advice" 1 \
	"$(grep -c -F "git ${config}</td>" "$work/tiny.html")"

# Several packs, git's default window (each pack mapped whole), a limit
# below their sum: packs evict each other.
cp -a "$work/demo" "$work/packs.repo"
"$GIT" -C "$work/packs.repo" repack -adq --max-pack-size=1m || fail "repack failed"
packs=$(find "$work/packs.repo/objects/pack" -name '*.pack' | wc -l)
[ "$packs" -ge 2 ] || fail "repack --max-pack-size made $packs pack(s)"
trace packs "$GIT" -C "$work/packs.repo" -c core.packedGitLimit=1m log --raw
advised packs
case $config in
*WindowSize*) check_failed "packs: the advice sets a window size git's maps do not show: $config" ;;
*) echo "ok: packs: $config" ;;
esac
trace packs-advised "$GIT" -C "$work/packs.repo" "${settings[@]}" log --raw
no_evictions packs-advised
finish
