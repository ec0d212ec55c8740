# cli.sample_1_2: tests/data/format-1.2.zst as this analyzer reads it.
.trace.events == 6013 and .trace.complete and (.processes | length) == 1
	and .totals.calls.mmap == 120 and .totals.calls.munmap == 116
	and .processes[0].maps.packed_git_limit.evictions == 115
	and .processes[0].maps.window_cost.measured and .processes[0].exit_status == 0
