# killed_by_signal.sh: a process that a signal the tracer catches
# (format.h, GT_CAUGHT_SIGNALS: SIGHUP, SIGINT, SIGPIPE, SIGTERM, SIGQUIT,
# SIGXFSZ, ...) kills at its default action has all its calls in the
# trace, and the report says which signal killed it; the program reads and sets those
# signals' actions as untraced, and dies with the same status
# (preload/hooks_signal.c). Before, such a process lost its unwritten calls
# (all of a short run's) and the report took it for cut short.
# tests/progs/signal_actions.c is the subject; `git log -p | head -1` the
# everyday case. A signal that comes while the tracer writes a block waits
# until the tracer has let go of its stream: from there the process's END
# can be written (TERM_IN_WRITE, tests/progs/term_in_write.c, sends it). So
# does one that comes inside the stream, or as the tracer ends reading a
# module's frame rules (SIGNAL_INSIDE, tests/progs/signal_inside.c).
#
# usage: bash killed_by_signal.sh PRELOAD REPORT PROGRAM TERM_IN_WRITE SIGNAL_INSIDE WORKDIR
. "$(dirname "$0")/../lib.sh"

[ $# -eq 6 ] ||
	fail "usage: killed_by_signal.sh PRELOAD REPORT PROGRAM TERM_IN_WRITE SIGNAL_INSIDE WORKDIR"
preload=$1 report=$2 prog=$3 term_in_write=$4 signal_inside=$5 work=$6
fresh_dir "$work"
clean_gittrace_env

# killed NAME SIGNAL MALLOCS: the report of $work/trace.zst says that its one
# process, complete, was killed by SIGNAL ("null": not killed), after at
# least MALLOCS calls of malloc.
killed() {
	local name=$1 signal=$2 mallocs=$3
	"$report" --json "$work/trace.zst" >"$work/$name.json" || fail "$name: the report failed"
	check_complete "$name" "$work/$name.json"
	check_eq "$name: killed by" "$signal" "$(jq -r '.processes[0].killed_by' "$work/$name.json")"
	local n
	n=$(jq '.processes[0].calls.malloc' "$work/$name.json")
	[ "$n" -ge "$mallocs" ] || fail "$name: $n calls of malloc in the trace, $mallocs made"
	echo "ok: $name: $n calls of malloc"
}

# program_case MODE STATUS SIGNAL MALLOCS: `PROGRAM MODE` does the same
# untraced and traced, ends with STATUS, and the report says it was killed
# by SIGNAL after MALLOCS calls of malloc (killed).
program_case() {
	plain_and_traced "$1" "$preload" "$prog" "$1"
	check_eq "$1: exit status" "$2" "$(cat "$work/plain.status")"
	killed "$1" "$3" "$4"
}

program_case actions 0 null 0
program_case pipe $((128 + 13)) SIGPIPE 1000
program_case handled $((128 + 2)) SIGINT 1000
program_case ignored 0 null 1000
# Two threads set SIGINT's action at once: the one that came last stands.
program_case race 0 null 0
check_grep "race: the handler set last stands" "^race: 0 wrong of " "$work/traced.stdout"
check_eq "ignored: exit status in the report" 0 \
	"$(jq '.processes[0].exit_status' "$work/ignored.json")"

# waited_out OUT SIGNAL CMD...: runs CMD, a program (the signal goes to the
# job's process), in the background, its stdout in OUT.stdout, until it
# prints "ready"; then sends it SIGNAL and writes its exit status in
# OUT.status.
waited_out() {
	local out=$1 signal=$2 pid status=0
	shift 2
	: >"$out.stdout" # not the last run's "ready": the job truncates it only once it runs
	"$@" >"$out.stdout" 2>"$out.stderr" &
	pid=$!
	until grep -q ready "$out.stdout" 2>/dev/null; do
		kill -0 "$pid" 2>/dev/null || fail "$out: ended before it was ready"
		sleep 0.05
	done
	kill "-$signal" "$pid"
	wait "$pid" || status=$?
	echo "$status" >"$out.status"
}

# Each caught signal but SIGPIPE (a pipe's, above), at its default action
# (a background job's SIGINT and SIGQUIT are ignored: env sets them back).
# Before, only HUP, INT, PIPE and TERM were caught: the others cut the
# process ("complete": false). No core files of those that dump one.
ulimit -c 0
for signal in HUP INT QUIT TERM USR1 USR2 ALRM XCPU XFSZ VTALRM PROF; do
	waited_out "$work/plain" "$signal" env --default-signal=INT,QUIT "$prog" wait
	waited_out "$work/traced" "$signal" env --default-signal=INT,QUIT GITTRACE_OUTPUT="$work/trace.zst" \
		LD_PRELOAD="${LD_PRELOAD:+$LD_PRELOAD:}$preload" "$prog" wait
	same_outcome "SIG$signal" "$work/plain" "$work/traced" 0
	check_eq "SIG$signal: exit status" "$((128 + $(kill -l "$signal")))" \
		"$(cat "$work/plain.status")"
	killed "SIG$signal" "SIG$signal" 1000
done

# git log -p writes 2 MiB into a pipe whose reader stops after a line: git
# fills the pipe, and its next write after head exits raises SIGPIPE.
use_git
repo=$work/repo
"$GIT" init -q "$repo"
seq 1 300000 >"$repo/numbers"
"$GIT" -C "$repo" add numbers
"$GIT" -C "$repo" -c user.name=t -c user.email=t@t commit -q -m numbers
pipeline='"$0" -C "$1" log -p | head -n 1; echo "${PIPESTATUS[0]}" >"$2"'
bash -c "$pipeline" "$GIT" "$repo" "$work/plain.status" >"$work/plain.stdout"
GITTRACE_OUTPUT=$work/trace.zst run_traced "$preload" \
	bash -c "$pipeline" "$GIT" "$repo" "$work/traced.status" >"$work/traced.stdout"
check_eq "git log -p | head -1: git's status" 141 "$(cat "$work/plain.status")"
check_eq "git log -p | head -1: git's status traced" 141 "$(cat "$work/traced.status")"
same_files "git log -p | head -1: stdout" "$work/plain.stdout" "$work/traced.stdout"
"$report" --json "$work/trace.zst" >"$work/git.json" || fail "git: the report failed"
check_complete "git log -p | head -1" "$work/git.json"
check_eq "git log -p | head -1: the processes killed" "git:SIGPIPE" \
	"$(jq -r '[.processes[] | select(.killed_by) | "\(.exe | split("/") | last):\(.killed_by)"]
		| join(" ")' "$work/git.json")"
# SIGTERM during the write of the first block of calls (the smallest buffer:
# the program's 200,000 pairs fill several blocks). Before, the signal came as the write
# unblocked it, with the stream still held: the process died with no END,
# "complete": false and killed_by null.
status=0
GITTRACE_OUTPUT=$work/trace.zst GITTRACE_BUFFER_SIZE=65536 \
	LD_PRELOAD="${LD_PRELOAD:+$LD_PRELOAD:}$preload:$term_in_write" "$prog" many || status=$?
check_eq "SIGTERM in a block's write: exit status" $((128 + 15)) "$status"
killed "SIGTERM in a block's write" SIGTERM 1000
check_eq "SIGTERM in a block's write: the program's end not reached" true \
	"$(jq '.processes[0].calls.malloc < 200000' "$work/SIGTERM in a block's write.json")"

# SIGTERM inside the stream (the stream's lock, in a process of two
# threads), as the main program's frame rules are read (the first call's
# stack, with stacks), and as tracing starts, in the tracer's constructor or
# earlier, in a hook another library's constructor calls: the signal waits
# until the stream is let go, comes as the reading ends, or once the
# tracer's signal handlers are set. Before, the process died there with no
# END: "complete": false, killed_by null (and at the start, no image at
# all; where a hook started it, until the tracer's constructor).
for where in stream:threads:400 rules:many:0 start:many:0 hook-start:many:0; do
	IFS=: read -r inside mode mallocs <<<"$where"
	status=0
	SIGNAL_INSIDE=$inside GITTRACE_OUTPUT=$work/trace.zst \
		LD_PRELOAD="${LD_PRELOAD:+$LD_PRELOAD:}$preload:$signal_inside" "$prog" "$mode" ||
		status=$?
	check_eq "SIGTERM inside the tracer ($inside): exit status" $((128 + 15)) "$status"
	killed "SIGTERM inside the tracer ($inside)" SIGTERM "$mallocs"
done
# The held SIGTERM is the process's it came to: a child that a handler forks
# while it is held goes on, as untraced (before, the child took it too as it
# let the stream go, and died of a signal nobody sent it).
status=0
SIGNAL_INSIDE=stream-then-usr1 GITTRACE_OUTPUT=$work/trace.zst \
	LD_PRELOAD="${LD_PRELOAD:+$LD_PRELOAD:}$preload:$signal_inside" "$prog" forker \
	>"$work/forker.stdout" || status=$?
check_eq "SIGTERM held, then a handler's fork: the parent's status" $((128 + 15)) "$status"
for _ in $(seq 600); do # the child is not waited for: a bound for a hang
	grep -q reached "$work/forker.stdout" && break
	sleep 0.1
done
check_grep "SIGTERM held, then a handler's fork: the child" \
	"^the handler's child reached the end$" "$work/forker.stdout"
# A vfork child, on its parent's thread and memory, sees it inside the
# stream: its own SIGTERM kills it at once, and the parent's held one still
# ends the parent. A second signal held waits behind the first. Before, the
# vfork child held its SIGTERM in the parent's memory and exited 7, and the
# parent, finding the signal another process's, lived on; the second
# signal took the first's place (status 130).
for mode in vforker second; do
	status=0
	SIGNAL_INSIDE=stream-then-usr1 GITTRACE_OUTPUT=$work/trace.zst \
		LD_PRELOAD="${LD_PRELOAD:+$LD_PRELOAD:}$preload:$signal_inside" "$prog" "$mode" \
		>"$work/$mode.stdout" || status=$?
	check_eq "SIGTERM held, then a handler's $mode: the status" $((128 + 15)) "$status"
done
check_grep "SIGTERM held, then a handler's vfork: the child" \
	"^the handler's vfork child: killed by SIGTERM$" "$work/vforker.stdout"
finish
