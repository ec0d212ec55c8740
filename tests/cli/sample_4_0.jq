# cli.sample_4_0: tests/data/format-4.0.zst (blocks returned coded in a
# column of their own, from any depth of their class's list) as this
# analyzer reads it: the same command as the 2.0 to 3.1 samples, every free
# matched, pack-objects' heap peak and leaks as there. The command gave
# git its window settings (-c): the advice is to drop them, in the verdict
# of the tree and of pack-objects, whose git passed them down; not to look
# for a config file. A run of 23 ms: its windows' kernel time, 2.3 ms, is
# ticks, so the class rests on the calls' own time (about 5%): neither,
# with the lowered limit's cost in the headline.
def proc(name): [.processes[] | select(.argv[1] == name and .calls.malloc > 0)][0];
.trace.events == 12469 and .trace.complete and (.processes | length) == 3
	and .totals.calls.malloc == 4915 and .totals.calls.free == 5933
	and (proc("pack-objects") | .threads == 3 and .exit_status == 0
		and .heap.allocations == 5809 and .heap.peak_bytes == 1762397
		and .heap.leaked_allocations == 502 and .heap.untracked_frees == 0
		and .heap.temporary_allocations == 2431)
	and (proc("-c") | .threads == 1 and .exit_status == 0
		and .heap.allocations == 564 and .heap.peak_bytes == 692764
		and .heap.leaked_allocations == 223 and .heap.untracked_frees == 0)
	and ([.verdict, proc("pack-objects").verdict] | all(
		(.headline | startswith("neither: ")
			and test("; core.packedGitLimit was lowered \\(78 evictions\\), which costs"))
		and (.suggestions[0] | startswith("the command sets them: drop -c"))
		and ([.suggestions[] | select(test("git config|config file"))] | length) == 0))
