#!/bin/sh
# Cuts a good trace at every offset inside its last block and checks that
# each cut is reported (exit 0) with "complete": false and the cut-short
# warning, never a crash or an error.
# Usage: truncate.sh REPORT GOOD_TRACE WORKDIR
report=$1 good=$2 dir=$3
mkdir -p "$dir"
size=$(wc -c <"$good")
last=$("$report" --dump "$good" | sed -n 's/.* BLOCK offset=\([0-9]*\) .*/\1/p' | tail -n1)
[ -n "$last" ] || { echo "no BLOCK line in --dump"; exit 1; }
n=$((last + 1))
while [ "$n" -lt "$size" ]; do
	head -c "$n" "$good" >"$dir/cut.zst"
	out=$("$report" --json "$dir/cut.zst" 2>"$dir/cut.err")
	status=$?
	[ "$status" -eq 0 ] || { echo "cut at $n: exit $status: $(cat "$dir/cut.err")"; exit 1; }
	grep -q "warning: trace cut short at offset $last: read $((n - last)) of" "$dir/cut.err" ||
		{ echo "cut at $n: $(cat "$dir/cut.err")"; exit 1; }
	printf '%s' "$out" | jq -e '.trace.complete == false' >/dev/null ||
		{ echo "cut at $n: complete is not false"; exit 1; }
	n=$((n + 1))
done
echo "checked $((size - last - 1)) cuts"
