#!/bin/sh
# Derives the bad inputs of the CLI tests from a good trace, into DIR:
#   empty, text (not a trace), gzip, random bytes inside the first block's
#   zstd frame, a block header claiming a newer major version, and a record
#   running past its block (a valid zstd frame with a lying record length),
#   blocks missing, junk after them, a block repeated, a trace cut inside
#   its first block, a later block claiming a newer major version, a later
#   block whose frame size runs past the end of the file, a block torn
#   mid-file with the next block right after what was written of it.
# Usage: make_bad.sh GOOD_TRACE DIR GITTRACE_REPORT
set -e
good=$1 dir=$2
mkdir -p "$dir"
: >"$dir/empty.zst"
printf 'hello, this is not a trace\n' >"$dir/text.zst"
gzip -c "$good" >"$dir/gzip.zst"
# Random bytes in the middle of block 0's frame (header is 56 bytes).
cp "$good" "$dir/corrupt.zst"
printf '\377\376\375\374\373\372\371\370' |
	dd of="$dir/corrupt.zst" bs=1 seek=120 conv=notrunc 2>/dev/null
# Major version (u16 at offset 8 + 4) set to 5, past the current (4).
cp "$good" "$dir/newer.zst"
printf '\005\000' | dd of="$dir/newer.zst" bs=1 seek=12 conv=notrunc 2>/dev/null
# Bad magic in the second block's skippable prefix: corruption mid-file.
second=$(od -An -tu4 -j32 -N4 "$good" | tr -d ' ')
cp "$good" "$dir/badmagic.zst"
printf 'XXXX' | dd of="$dir/badmagic.zst" bs=1 seek=$((56 + second)) conv=notrunc 2>/dev/null
# Image 1111…'s block 1 removed from the middle of the file: a block missing
# by seq (a warning and "complete": false, not an error).
offsets=$("$3" --dump "$good" 2>/dev/null | awk '/ BLOCK offset=/ { split($5, a, "="); print a[2] }')
start=$(printf '%s\n' "$offsets" | sed -n 3p)
next=$(printf '%s\n' "$offsets" | sed -n 4p)
{ head -c "$start" "$good"; tail -c +"$((next + 1))" "$good"; } >"$dir/gap.zst"
# The same gap, then more that the reader finds only after the block that
# reveals the gap: the first 30 bytes of the second block (a torn tail, two
# warnings), or bytes that are no block (a warning, then an error). For
# message_order.sh.
second=$(printf '%s\n' "$offsets" | sed -n 2p)
{ cat "$dir/gap.zst"; head -c "$((second + 30))" "$good" | tail -c 30; } >"$dir/gap_torn.zst"
{ cat "$dir/gap.zst"; printf 'XXXXXXXXXXXXXXXX'; } >"$dir/gap_junk.zst"
# The first block again at the end: a copy, which would count its calls
# twice; an image's blocks never repeat or go back.
{ cat "$good"; head -c "$second" "$good"; } >"$dir/repeated.zst"
# Cut inside the first block's header, then inside its frame: nothing
# whole to read, which is an error, not a report of no processes.
head -c 30 "$good" >"$dir/first_cut_header.zst"
head -c $((second - 1)) "$good" >"$dir/first_cut_frame.zst"
# The second block's major set to 5: one run writes one format, so this
# is damage, not a trace for a newer gittrace-report.
cp "$good" "$dir/newer_later.zst"
printf '\005\000' | dd of="$dir/newer_later.zst" bs=1 seek=$((second + 12)) conv=notrunc 2>/dev/null
# The second block's frame size (u32 at 32 in its header) set to 16,000,000,
# past the end of the file: its whole frame is there, so the header is
# damaged, and the blocks after it no torn tail to drop.
cp "$good" "$dir/framesize_later.zst"
printf '\000\044\364\000' | dd of="$dir/framesize_later.zst" bs=1 seek=$((second + 32)) conv=notrunc 2>/dev/null
# The third block torn 150 bytes before its end, the fourth right after:
# its process died in its write while others wrote on (kill -9).
third=$(printf '%s\n' "$offsets" | sed -n 3p)
fourth=$(printf '%s\n' "$offsets" | sed -n 4p)
{ head -c "$((fourth - 150))" "$good"; tail -c +"$((fourth + 1))" "$good"; } >"$dir/torn_mid.zst"
[ "$((fourth - 150))" -gt "$((third + 56))" ] # the cut is inside the third block's frame
