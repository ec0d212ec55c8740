#!/bin/bash
# Records PROG ARGS... and replays the trace: every image's replay makes
# exactly the calls the report counts for it, per function, under every
# allocator (the replayer checks its own calls against the op stream, and
# this checks the op stream against the report); the JSON has the schema's
# fields; nothing is reported as left out, and stderr says no more than
# which functions an allocator lacks (replayed through others).
# Usage: counts.sh PRELOAD REPORT REPLAY ALLOC WORK PROG [ARGS...]
preload=$1 report=$2 replay=$3 alloc=$4 work=$5
shift 5
. "$(dirname "$0")/lib.sh"
fresh_dir "$work"
record "$work/trace.zst" "$@"
mapfile -t allocs < <(allocators)

run_status "$work/text" "$replay" --rounds 2 "${allocs[@]}" "$work/trace.zst"
check_eq "replay exit status" 0 "$(cat "$work/text.status")"
check_eq "stderr: only allocators' missing functions" "" \
	"$(grep -v '^gittrace-replay: warning: .* has no .*: replayed through' "$work/text.stderr")"
check_counts text "$work/trace.zst" "$work/text.stdout"
check_eq "no call left out" 0 "$(grep -c 'not replayed' "$work/text.stdout" || true)"

run_status "$work/json" "$replay" --rounds 2 --json "${allocs[@]}" "$work/trace.zst"
check_eq "replay --json exit status" 0 "$(cat "$work/json.status")"
json=$work/json.stdout
check_eq "format" 1 "$(jq .gittrace_replay "$json")"
check_eq "image keys" '["allocators","argv","calls","pid"]' \
	"$(jq -c '[.images[] | keys] | unique | .[]' "$json")"
check_eq "allocator keys" \
	'["ci_high","ci_low","name","peak_rss_bytes","predicted_run_change","ratio","seconds"]' \
	"$(jq -c '[.images[].allocators[] | keys] | unique | .[]' "$json")"
check_eq "allocators per image" "$(( ${#allocs[@]} / 2 + 1 ))" \
	"$(jq '[.images[].allocators | length] | unique | .[]' "$json")"
check_eq "system first, ratio 1" '"system" 1' \
	"$(jq -r '[.images[0].allocators[0] | (.name | tojson), .ratio] | join(" ")' "$json")"
check_eq "calls as the report's malloc family" \
	"$(jq '[.processes[] | .calls | .malloc + .calloc + .realloc + .reallocarray + .free
		+ .posix_memalign + .aligned_alloc + .memalign + .valloc + .pvalloc] | add' \
		"$work/text.report.json")" \
	"$(jq '[.images[].calls] | add' "$json")"
check_eq "predicted change known (END record)" 0 \
	"$(jq '[.images[].allocators[] | select(.predicted_run_change == null)] | length' "$json")"
finish
