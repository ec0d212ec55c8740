# raw_fork.sh: forks that run no pthread_atfork handler, and their kin
# (tests/progs/raw_fork.c): syscall(SYS_clone) from the main thread and
# while another thread allocates, syscall(SYS_fork), _Fork(), a
# CLONE_VFORK clone whose child waits for a thread of its parent that
# allocates, fork() while another thread holds the loader's lock, and
# glibc's clone() whose function returns (glibc ends the child with the
# exit system call: its calls were lost) or calls exit. The child must be
# an image of its own, with its own calls only: before, it wrote its
# parent's unwritten records a second time under the parent's image and
# block numbers, and the report refused the whole trace as corrupt. The
# CLONE_VFORK case hung while the tracer held its fork guard across the
# clone; the loader's case hung in the child, which asked the loader for
# its modules. A clone with a thread pointer of its own (CLONE_SETTLS)
# passes through untraced: its child crashed in the tracer's code. The
# flush interval is an hour, so that the parent's calls are all unwritten
# at the fork.
#
# Forks that no hook sees at all, noticed by the fork mark (fork_mark.h):
# syscall(SYS_clone3), alone and with another thread, and fork() from a
# signal handler 1-2 ms into a loop of allocations, 20 times each: alone,
# with another thread, and with a child that calls _exit in the handler.
# About a third of those forks came while the thread was in a hook; each
# of those traces was corrupt before the mark, the child with another
# thread could wait forever for the stream's lock, and the child that
# ended in the handler was missing. A 64 KiB buffer makes it likely that
# the hook interrupted is writing a block (which the child wrote again).
#
# And fork() thrice, with pthread_atfork handlers that allocate, registered
# by a library before the tracer registered its own (EARLY_LIB): the
# child handler's call, made before the tracer's handler ran, was lost;
# the prepare handler's, made while the tracer's fork guard was held for
# writing, broke the guard, and every later fork waited a second for it
# and gave a child without stacks.
#
# usage: bash raw_fork.sh PRELOAD REPORT PROGRAM EARLY_LIB WORKDIR
. "$(dirname "$0")/../lib.sh"

[ $# -eq 5 ] || fail "usage: raw_fork.sh PRELOAD REPORT PROGRAM EARLY_LIB WORKDIR"
preload=$1 report=$2 prog=$3 early=$4 work=$5
fresh_dir "$work"

# count DUMP PID SIZE: the pid's malloc calls of SIZE bytes in the dump.
count() {
	grep -c " pid=$2 .* CALL fn=malloc .* size=$3 " "$1" || true
}

# check_fork NAME MODE [BUFFER_SIZE]: runs the program in MODE untraced and
# traced (as NAME), and checks the trace's processes and counts.
check_fork() {
	local name=$1 mode=$2 buffer=${3:-1m} parent forks child calls=500
	run_status "$work/$name.plain" timeout -s KILL 60 "$prog" "$mode"
	check_eq "$name: untraced output" "child status 7" "$(cat "$work/$name.plain.stdout")"
	# timeout stays untraced; env, traced, execs the program.
	run_status "$work/$name" timeout -s KILL 60 env GITTRACE_OUTPUT="$work/$name.zst" \
		GITTRACE_FLUSH_INTERVAL_MS=3600000 GITTRACE_BUFFER_SIZE="$buffer" \
		LD_PRELOAD="${LD_PRELOAD:+$LD_PRELOAD:}$preload" "$prog" "$mode"
	same_outcome "$name" "$work/$name.plain" "$work/$name" 0
	"$report" --json "$work/$name.zst" >"$work/$name.json" 2>"$work/$name.report.err" ||
		fail "$name: the report failed: $(cat "$work/$name.report.err")"
	check_eq "$name: trace complete" true "$(jq .trace.complete "$work/$name.json")"
	"$report" --dump "$work/$name.zst" >"$work/$name.dump"
	# The program, env's image or its first (env may exec it before tracing starts).
	parent=$(jq -r '.processes[] | select(.origin != "fork" and (.argv[0] | endswith("raw_fork")))
		| .pid' "$work/$name.json")
	check_eq "$name: the parent's calls before the fork" 1000 "$(count "$work/$name.dump" "$parent" 1111)"
	check_eq "$name: the parent's calls after it" 300 "$(count "$work/$name.dump" "$parent" 3333)"
	forks=$(jq '[.processes[] | select(.origin == "fork")] | length' "$work/$name.json")
	if [ "$mode" = settls ]; then
		check_eq "$name: no child in the trace" 0 "$forks"
		return
	fi
	check_eq "$name: one forked child" 1 "$forks"
	child=$(jq -r '.processes[] | select(.origin == "fork") | .pid' "$work/$name.json")
	[ "$mode" != signal_exit ] || calls=0
	check_eq "$name: the child's calls" "$calls" "$(count "$work/$name.dump" "$child" 2222)"
	check_eq "$name: the child's exit status" 7 \
		"$(jq -r '.processes[] | select(.origin == "fork") | .exit_status' "$work/$name.json")"
	check_eq "$name: none of the parent's calls again in the child" 0 \
		"$(count "$work/$name.dump" "$child" 1111)"
}

for mode in clone threads fork _Fork waits loader_busy settls libc_clone libc_clone_exit \
	clone3 clone3_threads; do
	check_fork "$mode" "$mode"
done
for round in $(seq 20); do
	for mode in signal_fork signal_fork_threads signal_exit; do
		check_fork "$mode.$round" "$mode" 64k
	done
done

GITTRACE_TEST_EARLY=atfork LD_PRELOAD=$early run_status "$work/atfork.plain" "$prog" atfork
GITTRACE_TEST_EARLY=atfork GITTRACE_OUTPUT=$work/atfork.zst LD_PRELOAD=$preload:$early \
	run_status "$work/atfork" "$prog" atfork
check_eq "atfork: untraced output" "child status 7" "$(cat "$work/atfork.plain.stdout")"
same_outcome atfork "$work/atfork.plain" "$work/atfork" 0
"$report" --json "$work/atfork.zst" >"$work/atfork.json" 2>"$work/atfork.report.err" ||
	fail "atfork: the report failed: $(cat "$work/atfork.report.err")"
"$report" --dump "$work/atfork.zst" >"$work/atfork.dump"
check_eq "atfork: trace complete" true "$(jq .trace.complete "$work/atfork.json")"
parent=$(jq -r '.processes[] | select(.origin == "root") | .pid' "$work/atfork.json")
check_eq "atfork: the prepare handler's calls" 3 "$(count "$work/atfork.dump" "$parent" 7776)"
for child in $(jq -r '.processes[] | select(.origin == "fork") | .pid' "$work/atfork.json"); do
	check_eq "atfork: child $child: the child handler's call" 1 \
		"$(count "$work/atfork.dump" "$child" 7777)"
	check_eq "atfork: child $child: its own calls" 500 "$(count "$work/atfork.dump" "$child" 2222)"
	check_eq "atfork: child $child: allocations without a stack" 0 \
		"$(grep -c " pid=$child .* CALL fn=malloc .* stack=0 " "$work/atfork.dump" || true)"
done
check_eq "atfork: forked children" 3 "$(jq '[.processes[] | select(.origin == "fork")] | length' \
	"$work/atfork.json")"

# A clone() child whose function returns while another of its threads runs
# on: the process ends with that thread, as untraced (the tracer's _exit
# ended both at once). And a clone() without a function fails as untraced
# (the tracer made a child that crashed).
for mode in libc_clone_thread no_function; do
	run_status "$work/$mode.plain" timeout -s KILL 60 "$prog" "$mode"
	GITTRACE_OUTPUT=$work/$mode.zst run_status "$work/$mode" \
		timeout -s KILL 60 env LD_PRELOAD="${LD_PRELOAD:+$LD_PRELOAD:}$preload" "$prog" "$mode"
	same_outcome "$mode" "$work/$mode.plain" "$work/$mode" 0
	"$report" --json "$work/$mode.zst" >/dev/null 2>"$work/$mode.report.err" ||
		fail "$mode: the report failed: $(cat "$work/$mode.report.err")"
done
check_eq "libc_clone_thread: untraced output" "thread done child status 0" \
	"$(paste -sd' ' "$work/libc_clone_thread.plain.stdout")"
check_eq "no_function: untraced output" "clone -1, errno 22" "$(cat "$work/no_function.plain.stdout")"
finish
