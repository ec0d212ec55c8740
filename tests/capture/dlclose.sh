# dlclose.sh: a program that loads and unloads two libraries in turns, at
# the same address, whose code lies at the same offsets but whose frames
# differ (tests/progs/dlclose_lib.c). The stack walk reads frame rules per
# code address and lets go of them at each dlclose. Checked here: every
# call recorded, every stack whole (through the library's two frames to
# main and on to _start, as libunwind gives it), and no growth with the
# unloads (a table of rules per dlclose once made it grow by 64 KiB each).
# Which library a frame is in cannot be checked by name: when both lie at
# the same address, the analyzer names such a frame by the first.
#
# usage: bash dlclose.sh PRELOAD REPORT DLCLOSE_LOOP LIB_A LIB_B WORKDIR
. "$(dirname "$0")/../lib.sh"

[ $# -eq 6 ] || fail "usage: dlclose.sh PRELOAD REPORT DLCLOSE_LOOP LIB_A LIB_B WORKDIR"
preload=$1 report=$2 prog=$3 lib_a=$4 lib_b=$5 work=$6
fresh_dir "$work"

# run ROUNDS: traces ROUNDS loads into $work/ROUNDS.{zst,dump}.
run() {
	local status=0
	GITTRACE_OUTPUT="$work/$1.zst" run_traced "$preload" "$prog" "$1" "$lib_a" "$lib_b" ||
		status=$?
	check_eq "exit status, $1 rounds" 0 "$status"
	"$report" --dump "$work/$1.zst" >"$work/$1.dump"
}

# The frames of the stack of each malloc of SIZE in DUMP, one line per call.
frames_of_mallocs() {
	awk -v size="size=$2" '
		/ STACK / { id = $0; sub(/.* id=/, "", id); sub(/ .*/, "", id)
			f = $0; sub(/.* frames=/, "", f); frames[id] = f }
		/ CALL fn=malloc / && index($0, " " size " ") {
			id = $0; sub(/.* stack=/, "", id); sub(/ .*/, "", id); print frames[id] }
	' "$1"
}

run 400
run 4000
for rounds in 400 4000; do
	dump=$work/$rounds.dump
	frames_of_mallocs "$dump" 1001 >"$work/$rounds.a"
	frames_of_mallocs "$dump" 2002 >"$work/$rounds.b"
	# Every call recorded, each stack whole.
	check_eq "mallocs in a, $rounds rounds" $((rounds / 2)) "$(wc -l <"$work/$rounds.a")"
	check_eq "mallocs in b, $rounds rounds" $((rounds / 2)) "$(wc -l <"$work/$rounds.b")"
	# The library's two frames (named by the first library at that
	# address), then the same frames from main to _start for every call.
	cat "$work/$rounds.a" "$work/$rounds.b" >"$work/$rounds.stacks"
	check_eq "stacks not through a library's two frames, $rounds rounds" 0 \
		"$(grep -Evc '^(inner_a;gt_test_alloc_in_a|inner_b;gt_test_alloc_in_b);main;' \
			"$work/$rounds.stacks" || true)"
	cut -d';' -f3- "$work/$rounds.stacks" | sort -u >"$work/$rounds.outer"
	check_eq "distinct outer parts, $rounds rounds" 1 "$(wc -l <"$work/$rounds.outer")"
	check_grep "an outer part from main to _start, $rounds rounds" '^main;.*;_start$' \
		"$work/$rounds.outer"
done

# Memory: ten times the unloads, about the same peak (the trace's buffers
# and the stacks seen fill up early). A table of rules kept per unload
# would add 64 KiB or more each time: hundreds of MiB here.
rss() { grep -o 'maxrss_kib=[0-9]*' "$work/$1.dump" | head -1 | cut -d= -f2; }
small=$(rss 400) large=$(rss 4000)
[ -n "$small" ] && [ -n "$large" ] || fail "no END record with maxrss_kib in the dumps"
if [ $((large - small)) -gt 8192 ]; then
	check_failed "peak RSS grew from $small KiB (400 rounds) to $large KiB (4000)"
fi
finish
