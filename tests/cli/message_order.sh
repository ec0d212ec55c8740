#!/bin/sh
# The report's messages come in file order although records are decoded on
# a thread of their own (analyzer/read/decoder.c): the model's warning of a
# missing block comes before what the decoding finds after it, a torn tail
# (exit 0). Bytes that are no block after it (exit 1) make bad input,
# which gets one line alone: the warnings held until the trace proves
# readable (analyzer/die.c) are dropped.
# Usage: message_order.sh GITTRACE_REPORT DIR (make_bad.sh's)
report=$1 dir=$2
fail() { echo "FAIL: $*"; exit 1; }

check() { # TRACE STATUS SECOND_MESSAGE
	err=$("$report" "$dir/$1" 2>&1 >/dev/null)
	status=$?
	[ "$status" -eq "$2" ] || fail "$1: exit status $status, want $2; stderr: $err"
	first=$(printf '%s\n' "$err" | sed -n 1p)
	second=$(printf '%s\n' "$err" | sed -n 2p)
	case $first in
	*"warning: block 1 of image 1111111111111111 (pid 100) missing before offset"*) ;;
	*) fail "$1: first message is not the missing block's: $err" ;;
	esac
	case $second in
	*"$3"*) ;;
	*) fail "$1: second message lacks '$3': $err" ;;
	esac
	echo "ok: $1: $first / $second"
}

check gap_torn.zst 0 "warning: trace cut short at offset"

err=$("$report" "$dir/gap_junk.zst" 2>&1 >/dev/null)
status=$?
[ "$status" -eq 1 ] || fail "gap_junk.zst: exit status $status, want 1; stderr: $err"
[ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || fail "gap_junk.zst: more than one line: $err"
case $err in
*"corrupt trace: no block header at offset"*) echo "ok: gap_junk.zst: $err" ;;
*) fail "gap_junk.zst: not the error: $err" ;;
esac
