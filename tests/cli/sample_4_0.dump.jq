# cli.sample_4_0: the sample is a 4.0 trace, block by block; and in git
# repack's image, which has one thread and whose untimed calls have no time
# entry at all in 4.0 (format.h, CALL), the reader places them between the
# timed ones: at least 95% of them at a time of their own.
split("\n") as $lines
| [$lines[] | select(contains(" BLOCK ")) | capture(" version=(?<v>[0-9.]+) ").v] as $v
| ($lines | map(select(contains(" IMAGE ") and contains(" origin=root"))) | .[0]
	| capture("^image=(?<id>[0-9a-f]+)").id) as $root
| [$lines[] | select(startswith("image=" + $root + " ") and contains(" CALL "))
	| {t: capture(" t_ns=(?<t>[0-9]+)").t, untimed: contains(" dur_ns=- ")}] as $calls
| [range(1; $calls | length) | select($calls[.].untimed) | $calls[.].t != $calls[. - 1].t]
	as $own
| ($v | length) > 3 and all($v[]; . == "4.0")
	and ($own | length) > 800 and ([$own[] | select(.)] | length) * 100 >= ($own | length) * 95
