# sanitizers.sh: a program whose allocator is a sanitizer's runtime, loaded
# as a library (gcc's -fsanitize=address and thread), runs as it does
# untraced, with one warning that the tracer stays off in it. Before, TSan's
# runtime crashed the program as it started: its failed lookups allocated
# through our hooks, which called sigfillset, whose interceptor had no
# real function yet. ASan refuses to start unless its runtime comes
# first; the launcher tells it not to check (verify_asan_link_order=0),
# and with that it ran into the same crash. The program's library
# allocates 400 KiB in its constructor, run before the preload's: the
# bootstrap arena that serves the runtime's start ran out there, and
# malloc failed. Each case checks the program's output (a line from a
# shell it runs too), status and stderr against its run untraced.
#
# usage: bash sanitizers.sh PRELOAD REPORT LAUNCHER ASAN_PROGRAM TSAN_PROGRAM WORKDIR
. "$(dirname "$0")/../lib.sh"

[ $# -eq 6 ] || fail "usage: sanitizers.sh PRELOAD REPORT LAUNCHER ASAN_PROGRAM TSAN_PROGRAM WORKDIR"
preload=$1 report=$2 launcher=$3 asan=$4 tsan=$5 work=$6
fresh_dir "$work"
clean_gittrace_env
unset ASAN_OPTIONS TSAN_OPTIONS

warning="gittrace: a sanitizer's runtime (*) serves this program's allocations: running untraced"

# check_case NAME PROGRAM LINES VAR=VALUE... -- CMD...: runs PROGRAM plain,
# then CMD with those variables set (traced), and compares them; CMD's
# stderr holds LINES of gittrace's, the warning one of them.
check_case() {
	local name=$1 prog=$2 lines=$3
	shift 3
	local env=()
	while [ "$1" != -- ]; do
		env+=("$1")
		shift
	done
	shift
	run_status "$work/$name.plain" "$prog"
	check_eq "$name: untraced exit status" 0 "$(cat "$work/$name.plain.status")"
	run_status "$work/$name" env "${env[@]}" "$@"
	same_outcome "$name" "$work/$name.plain" "$work/$name" "$lines"
	# shellcheck disable=SC2053 # a pattern: the runtime's path varies
	[[ $(head -1 "$work/$name.stderr") == $warning ]] ||
		fail "$name: the warning: $(head -1 "$work/$name.stderr")"
}

check_case tsan "$tsan" 1 GITTRACE_OUTPUT="$work/tsan.zst" LD_PRELOAD="$preload" -- "$tsan"
[ ! -e "$work/tsan.zst" ] || fail "tsan: a trace was written of a run the tracer stayed off in"

check_case asan "$asan" 1 GITTRACE_OUTPUT="$work/asan.zst" LD_PRELOAD="$preload" \
	ASAN_OPTIONS=verify_asan_link_order=0 -- "$asan"
[ ! -e "$work/asan.zst" ] || fail "asan: a trace was written of a run the tracer stayed off in"

# The launcher, with no ASAN_OPTIONS of the user's: it traces the shell,
# which ran the ASan program untraced, and says where it kept the trace.
# bash forks, then execs the program: the report counts that exec, which
# no image followed (dash's vfork leaves no image to count).
check_case launcher "$asan" 2 -- "$launcher" --no-report -o "$work/launcher.zst" -- \
	bash -c "\"$asan\"; exit \$?"
"$report" --json "$work/launcher.zst" >"$work/launcher.json" || fail "launcher: the report failed"
check_complete launcher "$work/launcher.json"
check_eq "launcher: the shell traced" bash \
	"$(jq -r '[.processes[] | select(.origin == "root") | .argv[0]] | join(" ")' "$work/launcher.json")"
check_eq "launcher: the ASan program counted as untraced" 1 \
	"$(jq '.trace.untraced_execs' "$work/launcher.json")"
"$report" "$work/launcher.zst" >"$work/launcher.txt" 2>&1 || fail "launcher: the text report failed"
check_grep "launcher: the text report says so" "^note: 1 program exec'd by traced processes ran untraced" \
	"$work/launcher.txt"

# The same program started by `env -i`: the tracer passes the run on to it
# (LD_PRELOAD, the session), and the launcher's ASAN_OPTIONS with them.
# Before, ASan refused to start there ("ASan runtime does not come first in
# initial library list"), status 1.
check_case env_i "$asan" 2 -- "$launcher" --no-report -o "$work/env_i.zst" -- \
	bash -c "env -i \"$asan\"; exit \$?"
finish
