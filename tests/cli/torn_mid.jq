# cli.torn_mid: a block torn mid-file (torn_mid.zst, make_bad.sh: its
# process died in its write while others wrote on) is skipped: the blocks
# after it are read, and its image and the trace are incomplete.
.trace.complete == false and (.processes | length) == 3
and ([.processes[] | select(.complete | not)] | length) == 1
