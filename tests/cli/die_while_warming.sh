#!/bin/sh
# A trace that proves corrupt while the modules its stacks name are being
# opened on the warmer's thread (analyzer/symbols/warm.c): gittrace-report
# exits 1 with its one line every time, never on a signal. gt_die's exit()
# ran libraries' destructors under that thread (OpenSSL's, loaded by libdw's
# debuginfod client): a crash in 16 of 20 runs here, until it took _exit.
# The trace is a recorded one of real modules, its first block repeated.
# Usage: die_while_warming.sh REPORT TRACE DIR
report=$1 trace=$2 dir=$3
mkdir -p "$dir" || exit 1
twice=$dir/twice.zst
cat "$trace" "$trace" >"$twice" || exit 1
here=$(dirname "$0")
i=0
while [ $i -lt 20 ]; do
	sh "$here/expect.sh" 1 "comes after its block" "$report" "$twice" || {
		echo "run $((i + 1)) of 20"
		exit 1
	}
	i=$((i + 1))
done
