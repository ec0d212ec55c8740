#!/bin/bash
# Input the replay cannot use: one line on stderr, a non-zero exit, no
# output; usage errors exit 2. Through the launcher too (gittrace replay).
# Usage: bad_input.sh REPLAY LAUNCHER WORK
replay=$1 launcher=$2 work=$3
. "$(dirname "$0")/lib.sh"
fresh_dir "$work"
head -c 4096 /dev/urandom >"$work/garbage"
printf 'not a trace at all\n' >"$work/text"
: >"$work/empty"

# expect NAME STATUS PATTERN CMD...: CMD exits STATUS with nothing on
# stdout and a first stderr line matching PATTERN.
expect() {
	local name=$1 status=$2 pattern=$3
	shift 3
	run_status "$work/$name" "$@"
	check_eq "$name: exit status" "$status" "$(cat "$work/$name.status")"
	check_eq "$name: stdout" "" "$(cat "$work/$name.stdout")"
	check_grep "$name: message" "$pattern" "$work/$name.stderr"
}

for bad in garbage text empty; do
	expect "$bad" 1 '^gittrace-replay: ' "$replay" "$work/$bad"
	check_eq "$bad: one line" 1 "$(wc -l <"$work/$bad.stderr")"
done
expect missing 1 "^gittrace-replay: cannot open '$work/none'" "$replay" "$work/none"
expect launcher 1 '^gittrace-replay: ' "$launcher" replay "$work/garbage"
expect no_trace 2 '^gittrace-replay: no trace given' "$replay"
expect bad_rounds 2 "^gittrace-replay: bad round count '0'" "$replay" --rounds 0 "$work/garbage"
expect unknown_alloc 2 "^gittrace-replay: unknown allocator 'tcmalloc'" \
	"$replay" --alloc tcmalloc "$work/garbage"
run_status "$work/help" "$launcher" replay --help
check_eq "help: exit status" 0 "$(cat "$work/help.status")"
check_grep "help: usage" '^usage: gittrace-replay ' "$work/help.stdout"
finish
