# signal_calls.sh: calls a signal handler makes while its thread is inside
# the tracer cannot be recorded there (the hook may hold the stream), so
# they are counted and the trace says so (format.h, DROPPED, reason busy):
# every call is either recorded or counted as dropped. In counting mode no
# library works for the tracer inside a hook (tracer.h, GT_GUARD_OWN), so
# the sum is exact: the program's own count, plus the calls libc makes
# alone (a run with no timer). Which calls land inside a hook depends on
# timing; the sum does not.
#
# usage: bash signal_calls.sh PRELOAD REPORT SIGNAL_CALLS WORKDIR
. "$(dirname "$0")/../lib.sh"

[ $# -eq 4 ] || fail "usage: signal_calls.sh PRELOAD REPORT SIGNAL_CALLS WORKDIR"
preload=$1 report=$2 prog=$3 work=$4
fresh_dir "$work"

# calls_in TRACE: malloc, free, mmap and munmap calls recorded, and calls dropped.
calls_in() {
	"$report" --json --top 0 "$1" |
		jq -r '([.processes[] | .calls.malloc + .calls.free + .calls.mmap + .calls.munmap]
				| add),
			([.processes[].dropped_calls] | add)'
}

GITTRACE_OUTPUT=$work/alone.zst GITTRACE_STACK_DEPTH=0 run_traced "$preload" "$prog" 0 \
	>"$work/alone.out"
{ read -r libc_alone; read -r dropped_alone; } <<<"$(calls_in "$work/alone.zst")"
check_eq "no timer: the program's own calls" "calls 0" "$(cat "$work/alone.out")"
check_eq "no timer: none dropped" 0 "$dropped_alone"

GITTRACE_OUTPUT=$work/signals.zst GITTRACE_STACK_DEPTH=0 run_traced "$preload" "$prog" 2000 \
	>"$work/signals.out"
made=$(sed -n 's/^calls //p' "$work/signals.out")
[ -n "$made" ] || fail "the program printed no count: $(cat "$work/signals.out")"
{ read -r recorded; read -r dropped; } <<<"$(calls_in "$work/signals.zst")"
echo "ok: made $made calls (+ $libc_alone of libc's), recorded $recorded, dropped $dropped"
check_eq "every call recorded or counted as dropped" $((made + libc_alone)) \
	$((recorded + dropped))
"$report" --dump "$work/signals.zst" | grep ' DROPPED ' | grep -v 'reason=busy' >"$work/other" || true
check_eq "DROPPED records of another reason" 0 "$(wc -l <"$work/other")"
finish
