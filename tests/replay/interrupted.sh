#!/bin/bash
# A replay that ends early leaves nothing behind: not its scratch directory
# (op streams of a dozen bytes a call), not a replayer. Stopped by SIGTERM
# while a replayer runs (stalling_preload.c holds it there), it dies of
# SIGTERM, and its replayer with it; failing on bad input, its exit status
# is the failure's and the directory goes too.
# Usage: interrupted.sh PRELOAD REPORT REPLAY STALLING_ALLOC WORK PROGRAM
preload=$1 report=$2 replay=$3 stall=$4 work=$5 program=$6
. "$(dirname "$0")/lib.sh"
fresh_dir "$work"
mkdir "$work/tmp"
record "$work/trace.zst" "$program" 2000

GITTRACE_TEST_STALL_FILE=$work/stalled TMPDIR=$work/tmp \
	"$replay" --rounds 1 --alloc "$stall" "$work/trace.zst" >"$work/out" 2>"$work/err" &
pid=$!
# Waiting for a state, not a time: the bound only ends a test that failed.
for _ in $(seq 600); do
	[ -s "$work/stalled" ] && break
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.1
done
[ -s "$work/stalled" ] || fail "the replayer under the stalling allocator did not start: $(cat "$work/err")"
runner=$(cat "$work/stalled")
check_eq "its op streams are on disk meanwhile" 1 \
	"$(find "$work/tmp" -name 'ops-*' | head -1 | wc -l)"
kill -TERM "$pid"
status=0
wait "$pid" || status=$?
check_eq "the replay dies of SIGTERM" 143 "$status"
check_eq "its scratch directory is gone" "" "$(ls -A "$work/tmp")"
for _ in $(seq 100); do
	kill -0 "$runner" 2>/dev/null || break
	sleep 0.1
done
kill -0 "$runner" 2>/dev/null && {
	kill -KILL "$runner"
	check_failed "the replayer (pid $runner) outlived the replay"
}

head -c 4096 /dev/urandom >"$work/garbage"
run_status "$work/bad" env TMPDIR="$work/tmp" "$replay" "$work/garbage"
check_eq "bad input: exit status" 1 "$(cat "$work/bad.status")"
check_eq "bad input: one line" 1 "$(wc -l <"$work/bad.stderr")"
check_eq "bad input: its scratch directory is gone" "" "$(ls -A "$work/tmp")"
finish
