# cli.late_frees: make_trace --late-frees, two images whose frees come a
# block each after their END, interleaved: every free matched, no leak.
.trace.complete and .trace.blocks == 202 and (.processes | length) == 2
	and .totals.calls.malloc == 200 and .totals.calls.free == 200
	and .totals.heap.untracked_frees == 0 and .totals.heap.leaked_allocations == 0
	and ([.processes[].heap.leaked_allocations] == [0, 0])
