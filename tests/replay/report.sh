#!/bin/bash
# gittrace-report --replay=FILE: the replay's JSON of the same trace joins
# the verdict (JSON verdict.replay per allocator, for the tree and for the
# process; an evidence line in text), and a file that is no replay's JSON
# gives one line and exit 1. What the changes are is a timing: only their
# presence and agreement with the replay's own JSON are checked.
# Usage: report.sh PRELOAD REPORT REPLAY ALLOC WORK PROG [ARGS...]
preload=$1 report=$2 replay=$3 alloc=$4 work=$5
shift 5
. "$(dirname "$0")/lib.sh"
fresh_dir "$work"
record "$work/trace.zst" "$@"
"$replay" --json --rounds 2 --alloc "$alloc" "$work/trace.zst" >"$work/replay.json" ||
	fail "gittrace-replay failed"

run_status "$work/json" "$report" --json --replay="$work/replay.json" "$work/trace.zst"
check_eq "report exit status" 0 "$(cat "$work/json.status")"
json=$work/json.stdout
check_eq "tree verdict: the replayed allocator" "\"$alloc\"" \
	"$(jq '.verdict.replay[0].allocator' "$json")"
check_eq "process verdict: the replayed allocator" "\"$alloc\"" \
	"$(jq '.processes[0].verdict.replay[0].allocator' "$json")"
check_eq "change: the replay's seconds over the verdict's CPU time" true \
	"$(jq --slurpfile r "$work/replay.json" '
		($r[0].images[0].allocators | (.[1].seconds - .[0].seconds)) as $d
		| .verdict.replay[0].change as $c
		| ($d / $c) > 0 or ($d == 0 and $c == 0)' "$json")"
check_eq "evidence line" 1 \
	"$(jq '[.verdict.evidence[] | select(startswith("replay: "))] | length' "$json")"

run_status "$work/text" "$report" --replay "$work/replay.json" "$work/trace.zst"
check_eq "text exit status" 0 "$(cat "$work/text.status")"
# The allocator's path may be long enough to go to the next line.
check_grep "text: replay evidence" "^  - replay:" "$work/text.stdout"

run_status "$work/plain" "$report" --json "$work/trace.zst"
check_eq "no --replay: no replay in the verdict" null "$(jq '.verdict.replay' "$work/plain.stdout")"

echo '{"gittrace_report": 1}' >"$work/other.json"
for bad in other.json trace.zst none.json; do
	run_status "$work/bad" "$report" --json --replay="$work/$bad" "$work/trace.zst"
	check_eq "$bad: exit status" 1 "$(cat "$work/bad.status")"
	check_eq "$bad: one line" 1 "$(wc -l <"$work/bad.stderr")"
	check_grep "$bad: message" "^gittrace-report: .*$bad" "$work/bad.stderr"
	check_eq "$bad: no report" "" "$(cat "$work/bad.stdout")"
done
finish
