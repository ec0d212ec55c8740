#!/bin/sh
# Checks the JSON report of make_trace's trace against the numbers
# make_trace.c wrote (see the comments there). Usage: check_json.sh REPORT TRACE
report=$1 trace=$2
json=$("$report" --json "$trace") || exit 1
fail=0
check() {
	if ! printf '%s' "$json" | jq -e "$1" >/dev/null; then
		echo "FAILED: $1"
		fail=1
	fi
}
check '.gittrace_report == 1'
check '.trace.complete == true and .trace.events == 71 and .trace.unknown_records == 1'
# pack-objects, exec'd by pid 101's image: that exec was followed.
check '.trace.untraced_execs == 0'
check '.processes | length == 3'
# Heaviest (CPU) first: root 1 s, fork 0.2 s, exec 0.1 s.
check '[.processes[].argv[1]] == ["log", "log", "pack-objects"]'
check '[.processes[].pid] == [100, 101, 101]'
check '.processes[2].cpu_seconds == 0.1 and .processes[1].cpu_seconds == 0.2'
check '[.processes[].complete] == [true, true, true]'
# Root: sites named from this program's own symbols.
check '.processes[0].sites[0] | .function == "known_malloc_site" and .allocations == 7 and .bytes == 460 and .temporary == 7'
check '.processes[0].sites[1] | .function == "known_leak_site" and .allocations == 3 and .leaked_allocations == 2 and .leaked_bytes == 200'
check '.processes[0].sites[0].frames[1].function == "worker_main"'
check '.processes[0].heap | .allocated_bytes == 760 and .peak_bytes == 500 and .temporary_allocations == 7 and .untracked_frees == 1 and .leaked_bytes == 200'
check '.processes[0].calls | .malloc == 8 and .calloc == 1 and .realloc == 1 and .free == 8 and .mmap == 13 and .munmap == 12'
check '.processes[0].maps.by_kind.pack == {"mmaps": 9, "munmaps": 9, "mremaps": 0, "bytes": 589824}'
check '.processes[0].maps.by_kind["pack-metadata"].mmaps == 1 and .processes[0].maps.by_kind.loose.munmaps == 1'
check '.processes[0].maps.by_kind.anonymous | .mmaps == 1 and .munmaps == 2'
check '.processes[0].maps | .remapped_regions == 6 and .failed_calls == 1 and .inferred_window_bytes == 65536 and .thrash_ratio == 3'
check '.processes[0].maps.packed_git_limit == {"evictions": 7, "at_least": 131072, "below": 196608}'
check '.processes[0].maps.peak_mapped_bytes == 10000 + 1048576'
# Window advice: without a limit the three windows stay mapped (192 KiB), rounded up to 1m.
check '.processes[0].maps.window_advice | .advice == "raise" and .needed_bytes == 196608 and .least_bytes == 196608 and .packed_git_limit_bytes == 1048576 and .git_config == "-c core.packedGitLimit=1m -c core.packedGitWindowSize=64k" and .evictions_predicted_at_advice == 0'
check '.processes[1].maps.window_advice | .advice == "no change" and .git_config == null'
# Fork: allocated in thread 2, freed in thread 1: not temporary.
check '.processes[1].heap.temporary_allocations == 0 and .processes[1].sites[0].allocations == 4'
check '.processes[2].heap.temporary_allocations == 1 and .processes[2].sites[0].allocations == 10'
check '.totals.calls.malloc == 22 and .totals.heap.leaked_allocations == 2'
check '.verdict.evidence | map(test("MALLOC_PERTURB_")) | any'
# One loose object mapped: too few to suggest packing them (GT_LOOSE_MANY).
check '.verdict.evidence | map(test("1 loose objects mapped")) | any'
check '.verdict.suggestions | map(test("git gc")) | any | not'
exit $fail
