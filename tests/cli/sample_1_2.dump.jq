# cli.sample_1_2: its --dump has 236 USAGE records (lines holding " USAGE ").
[split("\n")[] | select(contains(" USAGE "))] | length == 236
