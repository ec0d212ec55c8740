# repack.sh: `gittrace --phases` around `git repack -adf` of a demo
# repository records git's trace2 events beside the trace, and the report
# shows pack-objects' phases (enumerate-objects, prepare-pack,
# write-pack-file) whose rows, "(outside any region)" included, add up to
# the process's totals; every git process the run exec'd has phases.
#
# usage: bash repack.sh LAUNCHER REPORT MAKE_DEMO WORKDIR
. "$(dirname "$0")/../lib.sh"
use_git
[ $# -eq 4 ] || fail "usage: repack.sh LAUNCHER REPORT MAKE_DEMO WORKDIR"
launcher=$1 report=$2 make_demo=$3 work=$4
fresh_dir "$work"
demo_repo "$make_demo" "$work/demo" 5

"$launcher" --phases --no-report -o "$work/repack.zst" -- "$GIT" -C "$work/demo" repack -adfq \
	2>"$work/launcher.err" || fail "gittrace --phases failed: $(cat "$work/launcher.err")"
[ -s "$work/repack.trace2.json" ] || fail "no trace2 file beside the trace"
check_grep "the launcher names the trace2 file" "trace2 events kept in '$work/repack.trace2.json'" \
	"$work/launcher.err"
"$report" --json --trace2 "$work/repack.trace2.json" "$work/repack.zst" >"$work/r.json" \
	2>"$work/r.err" || fail "gittrace-report failed: $(cat "$work/r.err")"
check_eq "no warning" "" "$(cat "$work/r.err")"

po='(.processes[] | select(.argv[1] == "pack-objects"))'
check_eq "pack-objects' phases" true "$(jq "$po | [.phases[] | select(.category == \"pack-objects\") | .name] | 
	(index(\"enumerate-objects\") != null and index(\"prepare-pack\") != null and index(\"write-pack-file\") != null)" "$work/r.json")"
check_eq "the outside row first" '"(outside any region)"' "$(jq "$po.phases[0].name" "$work/r.json")"
for f in calls:events allocations:heap.allocations bytes:heap.allocated_bytes \
	temporary:heap.temporary_allocations map_calls:'calls.mmap+.calls.munmap+.calls.mremap'; do
	check_eq "pack-objects' rows add up: ${f%%:*}" true \
		"$(jq "$po | ([.phases[].${f%%:*}] | add) == (.${f#*:})" "$work/r.json")"
done
check_eq "pack-objects allocates inside its phases" true \
	"$(jq "$po | [.phases[1:][].allocations] | add > 0" "$work/r.json")"
check_eq "every exec'd or root git process has phases" true \
	"$(jq '[.processes[] | select(.origin != "fork") | .phases != null] | all' "$work/r.json")"

# What the launcher prints, with phases.
"$launcher" --phases --stdout -- "$GIT" -C "$work/demo" repack -adfq >"$work/r.txt" \
	2>"$work/r2.err" || fail "gittrace --phases failed: $(cat "$work/r2.err")"
check_grep "text: pack-objects' table" '^  pack-objects:write-pack-file ' "$work/r.txt"
finish
