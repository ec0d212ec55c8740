# cli.sample_1_0: tests/data/format-1.0.zst as this analyzer reads it.
.trace.events == 71 and (.processes | length) == 3 and .processes[0].heap.leaked_bytes == 200
	and .processes[0].maps.remapped_regions == 6
