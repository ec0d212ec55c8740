#!/bin/sh
# One CLI case: runs gittrace-report with the given arguments and checks its
# exit status and that stderr contains a substring (empty: stderr must be
# empty). Usage: expect.sh STATUS STDERR_SUBSTRING REPORT [ARGS...]
want_status=$1 want_err=$2 report=$3
shift 3
err=$(mktemp) || exit 1
"$report" "$@" >/dev/null 2>"$err"
status=$?
msg=$(cat "$err")
rm -f "$err"
if [ "$status" -ne "$want_status" ]; then
	echo "exit status $status, want $want_status; stderr: $msg"
	exit 1
fi
if [ -z "$want_err" ]; then
	[ -z "$msg" ] || { echo "unexpected stderr: $msg"; exit 1; }
else
	case $msg in
	*"$want_err"*) ;;
	*) echo "stderr lacks '$want_err': $msg"; exit 1 ;;
	esac
	# One line, as the house style says.
	[ "$(printf '%s\n' "$msg" | wc -l)" -le 2 ] || { echo "more than one line: $msg"; exit 1; }
fi
exit 0
