# data_limit.sh: under a limit on data (ulimit -d: the heap and private
# writable maps), the tracer's buffers count against the program's limit,
# so a malloc that fails near it may have failed for them: the tracer gives
# its memory back and the call is made again (preload/record.h,
# gt_may_fit), and the program gets all but a few MiB of what it gets
# untraced. Without that it got 11 MiB less (the record buffers and zstd's).
# tests/progs/heap_grows.c allocates 1 MiB blocks until one fails.
#
# usage: bash data_limit.sh PRELOAD REPORT PROGRAM WORKDIR
. "$(dirname "$0")/../lib.sh"

[ $# -eq 4 ] || fail "usage: data_limit.sh PRELOAD REPORT PROGRAM WORKDIR"
preload=$1 report=$2 prog=$3 work=$4
fresh_dir "$work"
clean_gittrace_env

limit=$((128 << 10)) # KiB
(ulimit -d $limit && "$prog") >"$work/plain.stdout" || fail "the untraced run failed"
GITTRACE_OUTPUT=$work/trace.zst run_status "$work/traced" \
	bash -c 'ulimit -d "$1" && LD_PRELOAD="${LD_PRELOAD:+$LD_PRELOAD:}$2" "$3"' \
	sh $limit "$preload" "$prog"
check_eq "traced: exit status" 0 "$(cat "$work/traced.status")"
check_grep "tracing stopped for want of memory" "^gittrace: out of memory" "$work/traced.stderr"
plain=$(sed -n 's/^allocated \([0-9]*\) MiB$/\1/p' "$work/plain.stdout")
traced=$(sed -n 's/^allocated \([0-9]*\) MiB$/\1/p' "$work/traced.stdout")
[ -n "$plain" ] && [ -n "$traced" ] || fail "no count: '$plain' untraced, '$traced' traced"
echo "ok: under ulimit -d $limit the program got $plain MiB untraced, $traced MiB traced"
[ "$traced" -ge $((plain - 6)) ] ||
	fail "traced, the program got $((plain - traced)) MiB less than untraced (at most 6 allowed)"
"$report" --json "$work/trace.zst" >"$work/report.json" || fail "the report failed"
finish
