# heap_refaults.sh: page faults beyond what a process needed, which the
# allocator prediction counts (analyzer/model/model.h,
# gt_image_heap_refaults). tests/progs/heap_refaults.c makes glibc shrink
# its heap back 50 times, each time by at least 1 MiB of pages it wrote
# (heap refaults, which mimalloc and jemalloc keep), then maps, writes and
# unmaps a 40 MiB block 3 times (faults every allocator makes: not
# counted); with "small" it keeps 2 million small blocks (none). Counts only: what they cost is the machine's, tested on
# recorded facts (unit.verdict).
#
# usage: bash heap_refaults.sh PRELOAD REPORT PROGRAM WORKDIR
. "$(dirname "$0")/../lib.sh"

[ $# -eq 4 ] || fail "usage: heap_refaults.sh PRELOAD REPORT PROGRAM WORKDIR"
preload=$1 report=$2 prog=$3 work=$4
fresh_dir "$work"
clean_gittrace_env

# Traced only: its output is its fault count, which the tracer adds to.
GITTRACE_OUTPUT=$work/trace.zst run_status "$work/traced" run_traced "$preload" "$prog"
check_eq "exit status" 0 "$(cat "$work/traced.status")"
"$report" --json "$work/trace.zst" >"$work/report.json" || fail "the report failed"
check_complete "heap refaults" "$work/report.json"
page=$(getconf PAGESIZE)
refaults=$(jq '.processes[0].heap.refaults' "$work/report.json")
faults=$(sed -n 's/^faults //p' "$work/traced.stdout")
trimmed=$((40 * (1 << 20) / page)) # 40 of the 49 rounds after the first, 1 MiB each at least
huge=$((3 * (40 << 20) / page))
echo "ok: $refaults refaults of $faults faults"
check_eq "refaults: the trimmed heap's, 40 rounds at least" true \
	"$([ "$refaults" -ge "$trimmed" ] && echo true)"
check_eq "refaults: not the huge blocks'" true \
	"$([ "$refaults" -le $((faults - huge)) ] && echo true)"

# Two million blocks of 16 bytes, never freed: a heap of twice their bytes
# (glibc's chunks), which no allocator faults in twice. Counting their bytes
# alone left 8,000 faults "beyond" them.
GITTRACE_OUTPUT=$work/small.zst run_status "$work/small" run_traced "$preload" "$prog" small
check_eq "small: exit status" 0 "$(cat "$work/small.status")"
"$report" --json "$work/small.zst" >"$work/small.json" || fail "small: the report failed"
check_eq "small: no refaults" 0 "$(jq '.processes[0].heap.refaults' "$work/small.json")"

# Their price: a page given back and written again, timed once per run,
# in its root (format.h, IMAGE page_cycle_ns); the verdict says it.
"$report" --dump "$work/trace.zst" >"$work/trace.dump" || fail "the dump failed"
check_eq "the root measured a page cycle" true \
	"$(grep ' IMAGE ' "$work/trace.dump" | grep -q ' page_cycle_ns=[1-9]' && echo true)"
check_grep "the verdict prices refaults by it" "what giving a page back and writing it again took" \
	"$work/report.json"
GITTRACE_OUTPUT=$work/tree.zst run_traced "$preload" sh -c '/bin/true; /bin/true'
"$report" --dump "$work/tree.zst" >"$work/tree.dump" || fail "tree: the dump failed"
check_eq "tree: the root's image alone measured it" "root" \
	"$(grep ' IMAGE ' "$work/tree.dump" | grep ' page_cycle_ns=[1-9]' | grep -o 'origin=[a-z]*' |
		cut -d= -f2 | xargs)"
check_eq "tree: its images" 3 "$(grep -c ' IMAGE ' "$work/tree.dump")"
finish
