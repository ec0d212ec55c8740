# counting_mode.sh: GITTRACE_STACK_DEPTH=0 records the same calls without
# stacks. known_calls is deterministic, so each image's calls per function
# must equal those of a run with stacks, and the counting run has no stacks.
# Nor does it hold libunwind's pipe: one descriptor more than untraced, the
# trace file's.
#
# usage: bash counting_mode.sh PRELOAD REPORT KNOWN_CALLS WORKDIR
. "$(dirname "$0")/../lib.sh"

[ $# -eq 4 ] || fail "usage: counting_mode.sh PRELOAD REPORT KNOWN_CALLS WORKDIR"
preload=$1 report=$2 prog=$3 work=$4
fresh_dir "$work"

# calls_by_image FILE: per image (ordered by origin and argv, as pids differ
# between runs), the calls per function.
calls_by_image() {
	"$report" --json --top 0 "$1" |
		jq -c '[.processes[] | {argv: .argv[1:], calls, threads}] | sort_by(.argv, .calls.malloc)'
}

for depth in 0 32; do
	GITTRACE_OUTPUT=$work/d$depth.zst GITTRACE_STACK_DEPTH=$depth \
		run_traced "$preload" "$prog" "$work/run" >/dev/null
	rm -rf "$work/run"
done
# known_calls' argv holds its directory, the same for both runs.
check_eq "calls per image, counting vs stacks" "$(calls_by_image "$work/d32.zst")" \
	"$(calls_by_image "$work/d0.zst")"
check_eq "sites with a named function in counting mode" 0 \
	"$("$report" --json --top 0 "$work/d0.zst" |
		jq '[.processes[].sites[] | select(.function | startswith("site_"))] | length')"

list_fds='ls /proc/$$/fd | sort -n'
plain=$(bash -c "$list_fds")
counting=$(GITTRACE_OUTPUT=$work/fds.zst GITTRACE_STACK_DEPTH=0 run_traced "$preload" bash -c "$list_fds")
check_eq "descriptors counting mode adds" 1 "$(comm -13 <(echo "$plain" | sort) <(echo "$counting" | sort) | wc -l)"
finish
