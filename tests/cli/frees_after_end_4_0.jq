# cli.frees_after_end_4_0: tests/data/frees-after-end-4.0.zst, whose 300
# frees after END are a block each: every one matched, nothing leaked.
.trace.complete and .trace.blocks == 302 and (.processes | length) == 1
	and .totals.calls.malloc == 300 and .totals.calls.free == 300
	and .totals.heap.untracked_frees == 0 and .totals.heap.leaked_allocations == 0
