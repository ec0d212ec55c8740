# cli.sample_2_0: tests/data/format-2.0.zst as this analyzer reads it. Every
# free is matched to its allocation by address (no untracked frees), and the
# heap's peaks and leaks come out as the analyzer of the writer's commit saw them.
def proc(name): [.processes[] | select(.argv[1] == name and .calls.malloc > 0)][0];
.trace.events == 12332 and .trace.complete and (.processes | length) == 3
	and .totals.calls.malloc == 4861 and .totals.calls.calloc == 545
	and .totals.calls.realloc == 899 and .totals.calls.free == 5882
	and .totals.calls.mmap == 75 and .totals.calls.munmap == 70
	and (proc("pack-objects") | .threads == 3 and .exit_status == 0
		and .heap.allocations == 5748 and .heap.peak_bytes == 1762333
		and .heap.leaked_allocations == 502 and .heap.leaked_bytes == 709056
		and .heap.temporary_allocations == 2375 and .heap.untracked_frees == 0
		and .maps.packed_git_limit.evictions == 69)
	and (proc("-C") | .threads == 1 and .exit_status == 0
		and .heap.allocations == 557 and .heap.peak_bytes == 692462
		and .heap.leaked_allocations == 222 and .heap.untracked_frees == 0)
