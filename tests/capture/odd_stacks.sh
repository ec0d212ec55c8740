# odd_stacks.sh: calls made on stacks a tracer can trip over
# (tests/progs/odd_stacks.c) run as they do untraced, and are all recorded:
# a thread of PTHREAD_STACK_MIN bytes that allocates, maps and loads a
# library (buffers of PATH_MAX on the tracer's frames overflowed it); a
# signal handler on an 8 KiB alternate stack (libunwind's frames overflowed
# it); a stack of the program's own below an unreadable page (the walk
# read that page). Each crashed the traced program.
#
# usage: bash odd_stacks.sh PRELOAD REPORT ODD_STACKS WORKDIR
. "$(dirname "$0")/../lib.sh"

[ $# -eq 4 ] || fail "usage: odd_stacks.sh PRELOAD REPORT ODD_STACKS WORKDIR"
preload=$1 report=$2 prog=$3 work=$4
fresh_dir "$work"

# A path longer than the tracer's short buffer for a map's path (hooks_map.c).
dir=$work/$(printf 'd%.0s' {1..120})/$(printf 'e%.0s' {1..120})
mkdir -p "$dir"
map_file=$dir/mapped
head -c 4096 /dev/zero >"$map_file"

# case NAME SIZE MODE...: plain and traced runs agree; the trace holds the
# case's 1000 calls of SIZE bytes, in full stacks and in counting mode.
case_of() {
	local name=$1 size=$2
	shift 2
	run_status "$work/$name.plain" "$prog" "$@"
	check_eq "$name: untraced run's status" 0 "$(cat "$work/$name.plain.status")"
	for mode in stacks counting; do
		local depth=32
		[ "$mode" = stacks ] || depth=0
		GITTRACE_OUTPUT=$work/$name.$mode.zst GITTRACE_STACK_DEPTH=$depth \
			run_status "$work/$name.$mode" run_traced "$preload" "$prog" "$@"
		same_outcome "$name ($mode)" "$work/$name.plain" "$work/$name.$mode" 0
		"$report" --dump "$work/$name.$mode.zst" >"$work/$name.$mode.dump"
		check_eq "$name ($mode): mallocs of $size bytes" 1000 \
			"$(grep -c " CALL fn=malloc .* size=$size " "$work/$name.$mode.dump" || true)"
	done
}

case_of min-thread 4321 min-thread "$map_file"
check_grep "min-thread: the mapped file's long path" "path=$map_file" \
	"$work/min-thread.stacks.dump"
case_of altstack 4322 altstack
case_of coroutine 4323 coroutine
# A new environment's arrays were built on the stack, whatever their size.
run_status "$work/big-env.plain" "$prog" big-env
check_eq "big-env: untraced run's status" 0 "$(cat "$work/big-env.plain.status")"
GITTRACE_OUTPUT=$work/big-env.zst run_status "$work/big-env.traced" run_traced "$preload" "$prog" \
	big-env
same_outcome "big-env" "$work/big-env.plain" "$work/big-env.traced" 0
check_eq "big-env: the spawned true is traced" 1 \
	"$("$report" --json "$work/big-env.zst" | jq '[.processes[] | select(.argv == ["true"])] | length')"
# The coroutine's stack ends where it cannot be read: its walks stop there.
check_grep "coroutine: stacks of its calls" "STACK id=[0-9]+ depth=[1-9].*coroutine" \
	"$work/coroutine.stacks.dump"
finish
