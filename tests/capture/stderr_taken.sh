# stderr_taken.sh: a tracer's warning goes to the stderr the program
# started with, and nowhere else. A program started with stderr closed
# opens a file of its own, which takes fd 2; then the tracer runs out of
# memory and warns (tests/progs/stderr_taken.c). The warning went into the
# program's file.
#
# usage: bash stderr_taken.sh PRELOAD REPORT STDERR_TAKEN WORKDIR
. "$(dirname "$0")/../lib.sh"

[ $# -eq 4 ] || fail "usage: stderr_taken.sh PRELOAD REPORT STDERR_TAKEN WORKDIR"
preload=$1 report=$2 prog=$3 work=$4
fresh_dir "$work"

# With stderr open, the run warns: the case below is one that warns.
GITTRACE_OUTPUT=$work/open.zst run_status "$work/open" run_traced "$preload" "$prog" "$work/open.file"
check_eq "stderr open: exit status" 0 "$(cat "$work/open.status")"
check_grep "stderr open: the warning" "^gittrace: out of memory" "$work/open.stderr"

# run_status would open a stderr of its own: these close it.
plain=0 closed=0
"$prog" "$work/plain.file" 2>&- || plain=$?
GITTRACE_OUTPUT=$work/closed.zst run_traced "$preload" "$prog" "$work/closed.file" 2>&- || closed=$?
check_eq "stderr closed: exit status" "$plain" "$closed"
same_files "stderr closed: the program's file" "$work/plain.file" "$work/closed.file"
check_grep "the program's file was on fd 2" "on fd 2$" "$work/closed.file"
"$report" --json "$work/closed.zst" >"$work/closed.json"
check_eq "stderr closed: the tracer stopped, the trace is cut" false \
	"$(jq .trace.complete "$work/closed.json")"
finish
