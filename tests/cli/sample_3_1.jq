# cli.sample_3_1: tests/data/format-3.1.zst (untimed calls of a one-thread
# image carry no time) as this analyzer reads it: the same command as the
# 2.0 and 3.0 samples, every free matched, pack-objects' leaks as there.
def proc(name): [.processes[] | select(.argv[1] == name and .calls.malloc > 0)][0];
.trace.events == 12200 and .trace.complete and (.processes | length) == 3
	and .totals.calls.malloc == 4801 and .totals.calls.free == 5828
	and (proc("pack-objects") | .threads == 3 and .exit_status == 0
		and .heap.allocations == 5677 and .heap.peak_bytes == 1762397
		and .heap.leaked_allocations == 502 and .heap.untracked_frees == 0
		and .heap.temporary_allocations == 2318)
	and (proc("-c") | .threads == 1 and .exit_status == 0
		and .heap.allocations == 564 and .heap.peak_bytes == 692764
		and .heap.leaked_allocations == 223 and .heap.untracked_frees == 0)
