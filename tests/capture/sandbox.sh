# sandbox.sh: a program that enters a seccomp sandbox which kills it on
# the system calls the tracer writes with (tests/progs/sandboxed.c) runs as
# it does untraced. The tracer writes what it holds and stops before the
# sandbox, with one warning; before, the program was killed (SIGSYS) at
# the tracer's next block. A program the sandboxed one starts, which
# inherits the filter, is not traced: started by a shell (so that the run's
# path was in its environment), it was killed at its tracer's start.
# The same sandbox entered through syscall(SYS_seccomp), as libseccomp
# enters it, stops the tracer too, and libseccomp's questions to the kernel
# before it do not: the allocation between the two is in the trace. A
# vfork child that enters a sandbox through syscall() and execs leaves its
# parent traced: the parent's later calls are in the trace, which is
# complete, and the program the child runs is untraced. In a sandbox that
# kills on fstat, asking about the descriptors from 3 up (fcntl, dup2)
# still works: the tracer, stopped, no longer hides its own behind an
# fstat (it killed the program).
#
# usage: bash sandbox.sh PRELOAD REPORT SANDBOXED WORKDIR
. "$(dirname "$0")/../lib.sh"

[ $# -eq 4 ] || fail "usage: sandbox.sh PRELOAD REPORT SANDBOXED WORKDIR"
preload=$1 report=$2 prog=$3 work=$4
fresh_dir "$work"

run_status "$work/plain" "$prog"
check_eq "untraced run's status" 0 "$(cat "$work/plain.status")"
run_status "$work/syscall.plain" "$prog" syscall
check_eq "untraced run's status, through syscall()" 0 "$(cat "$work/syscall.plain.status")"
for mode in stacks counting syscall; do
	depth=32 args=()
	[ "$mode" = stacks ] || depth=0
	[ "$mode" != syscall ] || args=(syscall)
	GITTRACE_OUTPUT=$work/$mode.zst GITTRACE_STACK_DEPTH=$depth \
		run_status "$work/$mode" run_traced "$preload" "$prog" "${args[@]}"
	plain=$work/plain
	[ "$mode" != syscall ] || plain=$work/syscall.plain
	same_outcome "$mode" "$plain" "$work/$mode" 1
	check_grep "$mode: the warning says why" "^gittrace: the program enters a seccomp sandbox" \
		"$work/$mode.stderr"
	"$report" --dump "$work/$mode.zst" >"$work/$mode.dump"
	check_eq "$mode: the allocation before the sandbox" 1 \
		"$(grep -c " CALL fn=malloc .* size=4324 " "$work/$mode.dump" || true)"
	[ "$mode" != syscall ] || check_eq "$mode: the allocation after the probe" 1 \
		"$(grep -c " CALL fn=malloc .* size=4325 " "$work/$mode.dump" || true)"
	"$report" --json "$work/$mode.zst" >"$work/$mode.json"
	check_eq "$mode: the trace ends at the sandbox" false "$(jq .trace.complete "$work/$mode.json")"
done

run_status "$work/vfork.plain" "$prog" vfork
GITTRACE_OUTPUT=$work/vfork.zst run_status "$work/vfork" run_traced "$preload" "$prog" vfork
check_grep "vfork: echo ran in the sandbox" "^echo in the sandbox$" "$work/vfork.plain.stdout"
same_outcome "vfork" "$work/vfork.plain" "$work/vfork" 0
"$report" --dump "$work/vfork.zst" >"$work/vfork.dump"
check_eq "vfork: the parent's calls after the child's sandbox" 1000 \
	"$(grep -c " CALL fn=malloc .* size=4328 " "$work/vfork.dump" || true)"
"$report" --json "$work/vfork.zst" >"$work/vfork.json"
check_eq "vfork: trace complete" true "$(jq .trace.complete "$work/vfork.json")"
check_eq "vfork: echo untraced" 0 "$(jq '[.processes[] | select(.argv[0] == "echo")] | length' "$work/vfork.json")"

run_status "$work/exec.plain" sh -c "\"$prog\" exec; echo status \$?"
GITTRACE_OUTPUT=$work/exec.zst run_status "$work/exec.traced" run_traced "$preload" \
	sh -c "\"$prog\" exec; echo status \$?"
check_grep "exec: echo ran in the sandbox" "^echo in the sandbox$" "$work/exec.plain.stdout"
same_outcome "exec" "$work/exec.plain" "$work/exec.traced" 1

run_status "$work/fds.plain" "$prog" fds
GITTRACE_OUTPUT=$work/fds.zst run_status "$work/fds" run_traced "$preload" "$prog" fds
check_eq "fds: untraced run's status" 0 "$(cat "$work/fds.plain.status")"
same_outcome "fds" "$work/fds.plain" "$work/fds" 1
finish
