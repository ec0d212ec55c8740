# cli.sample_3_0: tests/data/format-3.0.zst (addresses as references, freed
# blocks by size class) as this analyzer reads it: every free matched to its
# allocation, and pack-objects' peak and leaks those of the 2.0 trace of the
# same command.
def proc(name): [.processes[] | select(.argv[1] == name and .calls.malloc > 0)][0];
.trace.events == 12305 and .trace.complete and (.processes | length) == 3
	and .totals.calls.malloc == 4856 and .totals.calls.calloc == 540
	and .totals.calls.realloc == 902 and .totals.calls.free == 5872
	and .totals.calls.mmap == 70 and .totals.calls.munmap == 65
	and (proc("pack-objects") | .threads == 3 and .exit_status == 0
		and .heap.allocations == 5734 and .heap.peak_bytes == 1762333
		and .heap.leaked_allocations == 502 and .heap.leaked_bytes == 709056
		and .heap.temporary_allocations == 2374 and .heap.untracked_frees == 0
		and .maps.packed_git_limit.evictions == 63)
	and (proc("-C") | .threads == 1 and .exit_status == 0
		and .heap.allocations == 564 and .heap.peak_bytes == 692764
		and .heap.leaked_allocations == 223 and .heap.untracked_frees == 0)
