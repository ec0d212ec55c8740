# cli.missing_block: a block missing from the middle of the file (gap.zst,
# make_bad.sh) leaves its image and the trace incomplete.
.trace.complete == false and (.processes | map(select(.pid == 100))[0].complete) == false
