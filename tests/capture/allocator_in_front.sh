# allocator_in_front.sh: where another malloc comes before libgittrace's
# hooks, the program runs untraced, with one warning that says why. A
# program's own allocator (tests/progs/own_malloc.c), and jemalloc before
# libgittrace in LD_PRELOAD, hung the program at its start: the tracer's
# work inside its mmap hook (libdw reading a module's frame rules)
# allocated from that allocator while it held its own lock. An allocator
# without reallocarray of its own (jemalloc, the program's) left that
# function to libgittrace's hook, which gave that allocator's blocks to
# glibc's realloc: `sort` crashed.
#
# A preload that wraps realloc alone, before libgittrace.so
# (tests/progs/realloc_wrapper.c), leaves tracing on: reallocarray is
# recorded as itself, not as the wrapper's realloc.
#
# usage: bash allocator_in_front.sh PRELOAD REPORT OWN_MALLOC REALLOC_WRAPPER WORKDIR
. "$(dirname "$0")/../lib.sh"

[ $# -eq 5 ] || fail "usage: allocator_in_front.sh PRELOAD REPORT OWN_MALLOC REALLOC_WRAPPER WORKDIR"
preload=$1 report=$2 prog=$3 wrapper=$4 work=$5
fresh_dir "$work"

# in_front NAME CMD...: CMD untraced and traced (a hang fails, not waits)
# agree, but for the one warning.
in_front() {
	local name=$1
	shift
	run_status "$work/$name.plain" timeout -s KILL 60 "$@"
	check_eq "$name: untraced run's status" 0 "$(cat "$work/$name.plain.status")"
	GITTRACE_OUTPUT=$work/$name.zst run_status "$work/$name.traced" \
		timeout -s KILL 60 env LD_PRELOAD="${LD_PRELOAD:+$LD_PRELOAD:}$preload" "$@"
	same_outcome "$name" "$work/$name.plain" "$work/$name.traced" 1
	check_grep "$name: the warning says why" "another malloc comes before libgittrace" \
		"$work/$name.traced.stderr"
}

in_front own-malloc "$prog"
# A new run asked for (GITTRACE_SESSION=+, as gittrace sets it for its
# command) whose first program runs untraced: the programs it starts are
# told the run is untraced ("-"). Before, they got the "+" and each began a
# run of its own, replacing the trace file.
seen=$(GITTRACE_SESSION=+ GITTRACE_OUTPUT=$work/plus.zst \
	run_traced "$preload" "$prog" printenv GITTRACE_SESSION 2>/dev/null | tail -n 1)
check_eq "a new run, untraced: its program's session" - "$seen"
if has_library libjemalloc.so.2; then
	jemalloc=$(ldconfig -p | awk '$1 == "libjemalloc.so.2" { print $NF; exit }')
	LD_PRELOAD=$jemalloc in_front jemalloc-first sh -c 'echo jemalloc in front'
	# sort's lines grow with reallocarray, which jemalloc does not define.
	LD_PRELOAD=$jemalloc in_front jemalloc-reallocarray sh -c 'printf "b\na\n" | sort'
else
	echo "jemalloc not installed: its case left out (scripts/install-deps.sh installs it)"
fi

run_status "$work/wrapped.plain" sh -c 'printf "b\na\n" | sort'
GITTRACE_OUTPUT=$work/wrapped.zst run_status "$work/wrapped" \
	env LD_PRELOAD="$wrapper:$preload" sh -c 'printf "b\na\n" | sort'
same_outcome wrapped "$work/wrapped.plain" "$work/wrapped" 0
"$report" --json "$work/wrapped.zst" >"$work/wrapped.json"
check_eq "wrapped: sort's reallocarray calls recorded as such" true \
	"$(jq '[.processes[].calls.reallocarray // 0] | add > 0' "$work/wrapped.json")"
finish
