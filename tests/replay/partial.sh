#!/bin/bash
# A trace with calls the replay cannot make as recorded (tests/cli's
# make_trace: a free of a block never seen allocated, in the root image)
# says so plainly: one warning line naming the image and how many calls,
# a line in the text, and the other calls are replayed. --pid picks a
# process's images.
# Usage: partial.sh REPLAY MAKE_TRACE WORK
replay=$1 make_trace=$2 work=$3
. "$(dirname "$0")/lib.sh"
fresh_dir "$work"
"$make_trace" "$work/synthetic.zst"
run_status "$work/out" "$replay" --rounds 1 "$work/synthetic.zst"
check_eq "exit status" 0 "$(cat "$work/out.status")"
check_eq "one warning" "gittrace-replay: warning: pid 100: 1 of 18 calls not replayed as recorded (frees and reallocs of blocks never seen allocated, calls of unknown functions)" \
	"$(cat "$work/out.stderr")"
check_grep "the image's line" \
	'^  not replayed as recorded: 1 frees of blocks never seen allocated \(left out\), 0 reallocs' \
	"$work/out.stdout"
check_grep "its other calls replayed" '^  replayed calls: malloc=8 calloc=1 realloc=1 reallocarray=0 free=7 ' \
	"$work/out.stdout"
check_eq "every image replayed" 3 "$(grep -c '^pid ' "$work/out.stdout")"

# --pid: only that process's images (the fork and its exec share pid 101).
run_status "$work/pid" "$replay" --rounds 1 --pid 101 "$work/synthetic.zst"
check_eq "--pid: exit status" 0 "$(cat "$work/pid.status")"
check_eq "--pid: its images" "pid 101: git log,pid 101: git pack-objects" \
	"$(grep '^pid ' "$work/pid.stdout" | paste -sd,)"
check_eq "--pid: nothing to warn about" "" "$(cat "$work/pid.stderr")"
run_status "$work/nopid" "$replay" --rounds 1 --pid 999 "$work/synthetic.zst"
check_eq "--pid of no image: exit status" 1 "$(cat "$work/nopid.status")"
check_eq "--pid of no image: message" \
	"gittrace-replay: nothing to replay: no image of pid 999 made malloc-family calls in '$work/synthetic.zst'" \
	"$(cat "$work/nopid.stderr")"
finish
