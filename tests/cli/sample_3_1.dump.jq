# cli.sample_3_1: in git repack's image, which has one thread, the reader
# places the untimed calls between the timed ones (format.h, CALL): at
# least 95% of them at a time of their own. Read as they are carried (dts
# 0), each would sit at the previous call's time.
split("\n") as $lines
| ($lines | map(select(contains(" IMAGE ") and contains(" origin=root"))) | .[0]
	| capture("^image=(?<id>[0-9a-f]+)").id) as $root
| [$lines[] | select(startswith("image=" + $root + " ") and contains(" CALL "))
	| {t: capture(" t_ns=(?<t>[0-9]+)").t, untimed: contains(" dur_ns=- ")}] as $calls
| [range(1; $calls | length) | select($calls[.].untimed) | $calls[.].t != $calls[. - 1].t]
	as $own
| ($own | length) > 800 and ([$own[] | select(.)] | length) * 100 >= ($own | length) * 95
