# cli.sample_3_0: tests/data/format-3.0.zst (addresses as references) as this
# analyzer reads it. The same command as format-2.0.zst's, so the heap comes
# out the same wherever the two runs made the same calls: every free matched
# to its allocation, the same peaks, leaks and temporary allocations.
def proc(name): [.processes[] | select(.argv[1] == name and .calls.malloc > 0)][0];
.trace.events == 12384 and .trace.complete and (.processes | length) == 3
	and .totals.calls.malloc == 4861 and .totals.calls.calloc == 558
	and .totals.calls.realloc == 899 and .totals.calls.free == 5895
	and .totals.calls.mmap == 88 and .totals.calls.munmap == 83
	and (proc("pack-objects") | .threads == 3 and .exit_status == 0
		and .heap.allocations == 5761 and .heap.peak_bytes == 1762333
		and .heap.leaked_allocations == 502 and .heap.leaked_bytes == 709056
		and .heap.temporary_allocations == 2375 and .heap.untracked_frees == 0
		and .maps.packed_git_limit.evictions == 81)
	and (proc("-C") | .threads == 1 and .exit_status == 0
		and .heap.allocations == 557 and .heap.peak_bytes == 692462
		and .heap.leaked_allocations == 222 and .heap.untracked_frees == 0)
