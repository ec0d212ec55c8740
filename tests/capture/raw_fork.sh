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
# signal handler 1-2 ms into a loop of allocations, 20 times: about a
# third of those forks came while the thread was in a hook, and each of
# those traces was corrupt before the mark.
#
# usage: bash raw_fork.sh PRELOAD REPORT PROGRAM WORKDIR
. "$(dirname "$0")/../lib.sh"

[ $# -eq 4 ] || fail "usage: raw_fork.sh PRELOAD REPORT PROGRAM WORKDIR"
preload=$1 report=$2 prog=$3 work=$4
fresh_dir "$work"

# count DUMP PID SIZE: the pid's malloc calls of SIZE bytes in the dump.
count() {
	grep -c " pid=$2 .* CALL fn=malloc .* size=$3 " "$1" || true
}

# check_fork NAME MODE: runs the program in MODE untraced and traced (as
# NAME), and checks the trace's processes and counts.
check_fork() {
	local name=$1 mode=$2 parent forks child
	run_status "$work/$name.plain" timeout -s KILL 60 "$prog" "$mode"
	check_eq "$name: untraced output" "child status 7" "$(cat "$work/$name.plain.stdout")"
	# timeout stays untraced; env, traced, execs the program.
	run_status "$work/$name" timeout -s KILL 60 env GITTRACE_OUTPUT="$work/$name.zst" \
		GITTRACE_FLUSH_INTERVAL_MS=3600000 LD_PRELOAD="${LD_PRELOAD:+$LD_PRELOAD:}$preload" \
		"$prog" "$mode"
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
	check_eq "$name: the child's calls" 500 "$(count "$work/$name.dump" "$child" 2222)"
	check_eq "$name: none of the parent's calls again in the child" 0 \
		"$(count "$work/$name.dump" "$child" 1111)"
}

for mode in clone threads fork _Fork waits loader_busy settls libc_clone libc_clone_exit \
	clone3 clone3_threads; do
	check_fork "$mode" "$mode"
done
for round in $(seq 20); do
	check_fork "signal_fork.$round" signal_fork
done

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
