# cli.sample_1_1: tests/data/format-1.1.zst as this analyzer reads it.
.trace.events == 195 and .trace.complete and (.processes | length) == 2
	and .totals.calls.malloc == 124 and .totals.calls.free == 46
	and ([.processes[].exit_status] == [0, 0])
