# recorded.sh: --diff on recorded traces, so that nothing depends on this
# machine's speed (a class comes from measured times).
#   log-p-default-windows.zst (here): `git -C r log -p` with git's default
#     windows, GITTRACE_STACK_DEPTH=2: class neither, 1 pack map.
#   tests/data/format-1.2.zst: `git -C r -c core.packedGitWindowSize=8k -c
#     core.packedGitLimit=16k log -p`: 118 pack maps and 116 unmaps; class
#     neither since its windows' 3 ms of kernel time count as clock ticks
#     (docs/report.md), window-bound before. Their argv differ, so they
#     match by program and subcommand.
#   tests/data/format-1.0.zst: three images, two of them `git log` (a root
#     and its fork): duplicates match in order of appearance.
#   tests/data/format-1.1.zst: sites of one function and caller whose stacks
#     part deeper: the sites table's rows read apart.
#
# usage: bash recorded.sh REPORT THIS_DIR DATA_DIR WORKDIR
. "$(dirname "$0")/../lib.sh"
[ $# -eq 4 ] || fail "usage: recorded.sh REPORT THIS_DIR DATA_DIR WORKDIR"
report=$1 here=$2 data=$3 work=$4
fresh_dir "$work"
base=$here/log-p-default-windows.zst new=$data/format-1.2.zst

"$report" --diff --json "$base" "$new" >"$work/d.json" || fail "--diff --json failed"
check_eq "one process, matched" 1 "$(jq '[.processes[] | select(.base and .new)] | length' "$work/d.json")"
# Each side's class is the one its own report gives.
classes=$(for f in "$base" "$new"; do "$report" --json "$f" | jq '.processes[0].verdict.class'; done |
	jq -sc .)
check_eq "the classes, each its report's" "$classes" "$(jq -c '.processes[0].class' "$work/d.json")"
check_eq "pack maps: the change" '{"mmaps":117,"munmaps":116}' \
	"$(jq -c '.processes[0].delta.maps.pack' "$work/d.json")"
check_eq "delta = new - base (allocations)" true \
	"$(jq '.processes[0] | .delta.allocations == .new.heap.allocations - .base.heap.allocations' "$work/d.json")"
check_eq "delta = new - base (temporary)" true \
	"$(jq '.processes[0] | .delta.temporary == .new.heap.temporary_allocations - .base.heap.temporary_allocations' "$work/d.json")"
check_eq "the contract's keys" '["gittrace_diff","processes","sites"]' "$(jq -c 'keys_unsorted' "$work/d.json")"
check_eq "delta's keys" '["allocated_bytes","allocations","allocator_share","calls","maps","peak_bytes","temporary"]' \
	"$(jq -c '.processes[0].delta | keys' "$work/d.json")"
# base and new are the report's own process objects.
"$report" --json "$base" | jq -S '.processes[0]' >"$work/base.process.json"
jq -S '.processes[0].base' "$work/d.json" >"$work/diff.base.json"
same_files "base: the report's process object" "$work/base.process.json" "$work/diff.base.json"
check_eq "sites: sorted by the change in allocations" true \
	"$(jq '[.sites[].delta.allocations | fabs] | . == (sort | reverse)' "$work/d.json")"

"$report" --diff "$base" "$new" >"$work/d.txt" || fail "--diff failed"
check_grep "text: the classes" "^  class +$(jq -r '.[0]' <<<"$classes") +$(jq -r '.[1]' <<<"$classes")\$" \
	"$work/d.txt"
check_grep "text: pack maps" '^  pack mmaps +1 +118 +\+117 ' "$work/d.txt"
check_grep "text: the sites" '^Sites whose allocations changed most' "$work/d.txt"
# Sites differ by their whole stack, so their rows must read apart: format-1.1
# has sites of one function and caller whose stacks part deeper
# (`__tsearch <- __add_to_environ` twice when labelled by the caller alone).
"$report" --diff "$data/format-1.1.zst" "$data/format-1.1.zst" >"$work/d11.txt" ||
	fail "--diff of format-1.1 failed"
sed -n '/^Sites whose/,$p' "$work/d11.txt" | tail -n +3 | cut -c37- >"$work/d11.labels"
check_eq "text: sites listed" true "$([ "$(wc -l <"$work/d11.labels")" -ge 10 ] && echo true)"
check_eq "text: no two sites' rows read alike" "" "$(sort "$work/d11.labels" | uniq -d)"

# --fail-if-worse: 3 when a process got worse, and which way.
status_of() {
	set +e
	"$report" "$@" >/dev/null 2>"$work/err"
	echo $?
	set -e
}
check_eq "--fail-if-worse: more pack maps" 3 "$(status_of --diff --fail-if-worse=50 "$base" "$new")"
check_grep "--fail-if-worse: says what" "^gittrace-report: worse: pack maps of 'git -C r -c .*': 1 -> 118" \
	"$work/err"
check_eq "--fail-if-worse: a larger allocator share the other way" 3 \
	"$(status_of --diff --fail-if-worse 50 "$new" "$base")"
check_grep "--fail-if-worse: the allocator share" \
	"^gittrace-report: worse: allocator time share of 'git -C r log -p': 0.0668771 -> 0.122659 " \
	"$work/err"
check_eq "--fail-if-worse: only that" 1 "$(wc -l <"$work/err")"
check_eq "--fail-if-worse: a large PCT passes" 0 \
	"$(status_of --diff --fail-if-worse=100000 "$new" "$base")"
check_eq "--fail-if-worse without --diff: usage" 2 "$(status_of --fail-if-worse=5 "$base")"
check_eq "--diff with one trace: usage" 2 "$(status_of --diff "$base")"

# A trace against itself: no change anywhere; duplicates match in order.
for t in "$base" "$data/format-1.0.zst" "$new"; do
	name=$(basename "$t")
	"$report" --diff --json --fail-if-worse=0 "$t" "$t" >"$work/$name.self.json" ||
		check_failed "$name: itself is worse"
	check_eq "$name: all deltas zero" '[0]' \
		"$(jq -c '[.processes[].delta | .. | numbers] + [.sites[].delta[]] | unique' "$work/$name.self.json")"
	check_eq "$name: each process matched with itself" true \
		"$(jq '[.processes[] | .base.image_id == .new.image_id] | all' "$work/$name.self.json")"
	check_eq "$name: the same class" true \
		"$(jq '[.processes[] | .class[0] == .class[1]] | all' "$work/$name.self.json")"
done
check_eq "format-1.0: the two git log match in order" \
	'[["1111111111111111","1111111111111111"],["2222222222222222","2222222222222222"]]' \
	"$(jq -c '[.processes[] | select(.base.argv == ["git","log"]) | [.base.image_id, .new.image_id]]' \
		"$work/format-1.0.zst.self.json")"
finish
