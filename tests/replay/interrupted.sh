#!/bin/bash
# A replay that ends early leaves nothing behind: not its scratch directory
# (op streams of a dozen bytes a call), not a replayer. Stopped by SIGTERM
# or SIGINT sent to it alone while a replayer runs (stalling_preload.c holds
# it there), it dies of that signal, and its replayer with it; failing on
# bad input or a result it cannot write, its exit status is the failure's,
# with one line on stderr, and the directory goes too.
# Usage: interrupted.sh PRELOAD REPORT REPLAY STALLING_ALLOC WORK PROGRAM
preload=$1 report=$2 replay=$3 stall=$4 work=$5 program=$6
. "$(dirname "$0")/lib.sh"
fresh_dir "$work"
mkdir "$work/tmp"
record "$work/trace.zst" "$program" 2000

# stopped SIGNAL STATUS: a replay held in its replayer, sent SIGNAL (to it
# alone, as kill PID does), ends with STATUS, leaving nothing behind.
stopped() {
	local sig=$1 want=$2 pid runner status=0
	rm -f "$work/stalled"
	# A background job of a script starts with SIGINT ignored: not this one.
	GITTRACE_TEST_STALL_FILE=$work/stalled TMPDIR=$work/tmp env --default-signal="$sig" \
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
	check_eq "SIG$sig: its op streams are on disk meanwhile" 1 \
		"$(find "$work/tmp" -name 'ops-*' | head -1 | wc -l)"
	kill -"$sig" "$pid"
	for _ in $(seq 300); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$pid" 2>/dev/null; then
		check_failed "SIG$sig: the replay goes on"
		kill -KILL "$pid" "$runner"
	fi
	wait "$pid" || status=$?
	check_eq "SIG$sig: the replay dies of it" "$want" "$status"
	check_eq "SIG$sig: its scratch directory is gone" "" "$(ls -A "$work/tmp")"
	for _ in $(seq 100); do
		kill -0 "$runner" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$runner" 2>/dev/null; then
		kill -KILL "$runner"
		check_failed "SIG$sig: the replayer (pid $runner) outlived the replay"
	fi
}
stopped TERM 143
stopped INT 130

# A result that cannot be written (a full disk) is a failure, said in one line.
status=0
TMPDIR=$work/tmp "$replay" --rounds 1 "$work/trace.zst" >/dev/full 2>"$work/full.err" || status=$?
check_eq "stdout full: exit status" 1 "$status"
check_grep "stdout full: why" "^gittrace-replay: cannot write the result: " "$work/full.err"
check_eq "stdout full: its scratch directory is gone" "" "$(ls -A "$work/tmp")"

head -c 4096 /dev/urandom >"$work/garbage"
run_status "$work/bad" env TMPDIR="$work/tmp" "$replay" "$work/garbage"
check_eq "bad input: exit status" 1 "$(cat "$work/bad.status")"
check_eq "bad input: one line" 1 "$(wc -l <"$work/bad.stderr")"
check_eq "bad input: its scratch directory is gone" "" "$(ls -A "$work/tmp")"
finish
