# cli.sample_4_0: the sample is a 4.0 trace, block by block.
[split("\n")[] | select(contains(" BLOCK ")) | capture(" version=(?<v>[0-9.]+) ").v] as $v
| ($v | length) > 3 and all($v[]; . == "4.0")
