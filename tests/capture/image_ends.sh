# image_ends.sh: a program that ends its image by a way other than libc's
# exit, _exit and exec wrappers (tests/progs/image_ends.c): the exit_group,
# execve and execveat system calls through syscall(), and execveat(). It
# keeps its exit status, and its trace holds every call: the tracer ends
# the image there as at _exit or execve. Before, the calls still in the
# tracer's buffer were lost without a word, and the exec'd program started
# a run of its own, truncating the trace file. The flush interval is an
# hour, so that nothing was written before. And a vfork-like child made
# through syscall() that ends with exit_group leaves its parent running.
#
# The same from a library's constructor that runs before the tracer's first
# hook (EARLY_LIB, after libgittrace.so in LD_PRELOAD, tests/progs/early_lib.c):
# the vfork-like child, and the exec, which started a run of its own there;
# and a child forked there (fork() and syscall(SYS_fork)) that exits there:
# it started a run of its own, which its parent's truncated, and no
# destructor of the tracer's ran in it (the loader had not run the
# constructor): its calls were lost. A fork in that library's destructor,
# which runs after the tracer's: glibc has dropped the tracer's fork
# handlers by then. And a fork by a signal handler while the tracer writes
# the END (END_FORK, tests/progs/end_fork.c). And daemon(), whose parent
# glibc ends past the _exit hook.
#
# usage: bash image_ends.sh PRELOAD REPORT PROGRAM EARLY_LIB END_FORK WORKDIR
. "$(dirname "$0")/../lib.sh"

[ $# -eq 6 ] || fail "usage: image_ends.sh PRELOAD REPORT PROGRAM EARLY_LIB END_FORK WORKDIR"
preload=$1 report=$2 prog=$3 early=$4 end_fork=$5 work=$6
fresh_dir "$work"

for mode in exit_group syscall execveat syscall_execveat; do
	args=()
	[ "$mode" = exit_group ] || args=("$mode")
	run_status "$work/$mode.plain" "$prog" "${args[@]}"
	GITTRACE_OUTPUT=$work/$mode.zst GITTRACE_FLUSH_INTERVAL_MS=3600000 \
		run_status "$work/$mode" run_traced "$preload" "$prog" "${args[@]}"
	same_outcome "$mode" "$work/$mode.plain" "$work/$mode" 0
	"$report" --dump "$work/$mode.zst" >"$work/$mode.dump"
	check_eq "$mode: every allocation in the trace" 1000 \
		"$(grep -c " CALL fn=malloc .* size=4327 " "$work/$mode.dump" || true)"
	"$report" --json "$work/$mode.zst" >"$work/$mode.json"
	check_eq "$mode: trace complete" true "$(jq .trace.complete "$work/$mode.json")"
	[ "$mode" != exit_group ] || continue
	check_eq "$mode: untraced exit status" 4 "$(cat "$work/$mode.plain.status")"
	check_eq "$mode: the program's END, then the shell's" "reason=exec reason=_exit" \
		"$(grep " END " "$work/$mode.dump" | grep -o 'reason=[a-z_]*' | paste -sd' ')"
	check_eq "$mode: the shell is the program's next image" "sh -c exit 4" \
		"$(jq -r '.processes[] | select(.origin == "exec") | .argv | join(" ")' "$work/$mode.json")"
done
# A vfork-like child made and ended through syscall() runs on its parent's
# stack: the parent must come back from its syscall() as it does untraced.
run_status "$work/vfork.plain" "$prog" vfork
GITTRACE_OUTPUT=$work/vfork.zst run_status "$work/vfork" run_traced "$preload" "$prog" vfork
check_eq "vfork: untraced output" "child status 5" "$(cat "$work/vfork.plain.stdout")"
same_outcome "vfork" "$work/vfork.plain" "$work/vfork" 0
"$report" --json "$work/vfork.zst" >"$work/vfork.json"
check_eq "vfork: trace complete" true "$(jq .trace.complete "$work/vfork.json")"

# From the constructor of a library after libgittrace.so in LD_PRELOAD.
for mode in vfork exec fork raw_fork; do
	GITTRACE_TEST_EARLY=$mode LD_PRELOAD=$early run_status "$work/early_$mode.plain" "$prog"
	GITTRACE_TEST_EARLY=$mode GITTRACE_OUTPUT=$work/early_$mode.zst LD_PRELOAD=$preload:$early \
		run_status "$work/early_$mode" "$prog"
	same_outcome "early $mode" "$work/early_$mode.plain" "$work/early_$mode" 0
	"$report" --json "$work/early_$mode.zst" >"$work/early_$mode.json"
	check_eq "early $mode: trace complete" true "$(jq .trace.complete "$work/early_$mode.json")"
done
check_grep "early vfork: the parent's register kept" "^early: child status 5, kept 42$" \
	"$work/early_vfork.plain.stdout"
check_eq "early exec: the program and the shell it became" "exec root" \
	"$(jq -r '[.processes[].origin] | sort | join(" ")' "$work/early_exec.json")"
for mode in fork raw_fork; do
	check_eq "early $mode: untraced output" "early: child status 7" \
		"$(cat "$work/early_$mode.plain.stdout")"
	check_eq "early $mode: the program and its forked child, with their exit statuses" \
		"fork:7 root:3" \
		"$(jq -r '[.processes[] | "\(.origin):\(.exit_status)"] | sort | join(" ")' \
			"$work/early_$mode.json")"
	check_eq "early $mode: the child's calls" 500 \
		"$(jq '[.processes[] | select(.origin == "fork") | .calls.malloc] | add' \
			"$work/early_$mode.json")"
done

# The status a parent sees is the low 8 bits of what exit or _exit was
# given, or main returned; the END held the whole value (300), and -1 was
# taken for "unknown". quick_exit had no END: the process read as killed.
for mode in exit_300:44 _exit_300:44 return_-1:255 quick_exit_5:5; do
	status=${mode#*:} mode=${mode%:*}
	run_status "$work/$mode.plain" "$prog" "$mode"
	GITTRACE_OUTPUT=$work/$mode.zst run_status "$work/$mode" run_traced "$preload" "$prog" "$mode"
	check_eq "$mode: untraced exit status" "$status" "$(cat "$work/$mode.plain.status")"
	same_outcome "$mode" "$work/$mode.plain" "$work/$mode" 0
	"$report" --json "$work/$mode.zst" >"$work/$mode.json"
	check_eq "$mode: the exit status in the report" "$status" \
		"$(jq '.processes[0].exit_status' "$work/$mode.json")"
done
"$report" --dump "$work/quick_exit_5.zst" >"$work/quick_exit_5.dump"
check_eq "quick_exit_5: its handler's allocation too, after END" 1001 \
	"$(grep -c " CALL fn=malloc .* size=4327 " "$work/quick_exit_5.dump" || true)"

# A child forked by an at_quick_exit handler ends inside libc, past every
# hook, when the handlers are done: its image ends with them (its calls and
# END were lost).
run_status "$work/quick_exit_fork.plain" "$prog" quick_exit_fork_6
GITTRACE_OUTPUT=$work/quick_exit_fork.zst run_status "$work/quick_exit_fork" \
	run_traced "$preload" "$prog" quick_exit_fork_6
check_eq "quick_exit_fork: untraced output" "child status 6" \
	"$(cat "$work/quick_exit_fork.plain.stdout")"
check_eq "quick_exit_fork: untraced exit status" 6 "$(cat "$work/quick_exit_fork.plain.status")"
same_outcome "quick_exit_fork" "$work/quick_exit_fork.plain" "$work/quick_exit_fork" 0
"$report" --json "$work/quick_exit_fork.zst" >"$work/quick_exit_fork.json"
check_eq "quick_exit_fork: trace complete" true "$(jq .trace.complete "$work/quick_exit_fork.json")"
check_eq "quick_exit_fork: both ended, with status 6" "fork:6 root:6" \
	"$(jq -r '[.processes[] | "\(.origin):\(.exit_status)"] | sort | join(" ")' \
		"$work/quick_exit_fork.json")"
check_eq "quick_exit_fork: the child's calls" 1000 \
	"$(jq '[.processes[] | select(.origin == "fork") | .calls.malloc] | add' \
		"$work/quick_exit_fork.json")"

# daemon() ends its parent with _exit(0) inside libc, past the _exit hook;
# the child goes on detached, allocates and makes a file. Before, the
# parent's last block and END were lost: "complete": false.
for run in daemon.plain daemon; do
	args=(daemon "$work/$run.done")
	if [ "$run" = daemon ]; then
		GITTRACE_OUTPUT=$work/daemon.zst run_status "$work/$run" run_traced "$preload" "$prog" "${args[@]}"
	else
		run_status "$work/$run" "$prog" "${args[@]}"
	fi
done
same_outcome "daemon" "$work/daemon.plain" "$work/daemon" 0
# The child is not waited for: its END comes after its file. A bound for a hang.
for _ in $(seq 600); do
	[ -e "$work/daemon.done" ] && [ -e "$work/daemon.plain.done" ] &&
		[ "$("$report" --json "$work/daemon.zst" | jq '.processes | length')" = 2 ] &&
		"$report" --json "$work/daemon.zst" | jq -e '.processes | all(.exit_status != null)' >/dev/null &&
		break
	sleep 0.1
done
"$report" --json "$work/daemon.zst" >"$work/daemon.json"
check_eq "daemon: trace complete" true "$(jq .trace.complete "$work/daemon.json")"
check_eq "daemon: the parent and the child, with their exit statuses" "fork:0 root:0" \
	"$(jq -r '[.processes[] | "\(.origin):\(.exit_status)"] | sort | join(" ")' "$work/daemon.json")"
"$report" --dump "$work/daemon.zst" >"$work/daemon.dump"
check_eq "daemon: every allocation, the parent's and the child's" 2000 \
	"$(grep -c " CALL fn=malloc .* size=4327 " "$work/daemon.dump" || true)"

# The same, 50 children, while another thread adds atexit handlers: a
# child that inherited glibc's lock of the handler lists held hung where it
# added its own (now added in the parent, before the fork).
GITTRACE_OUTPUT=$work/quick_exit_forks.zst run_status "$work/quick_exit_forks" \
	run_traced "$preload" timeout -s KILL 120 "$prog" quick_exit_forks_4
check_eq "quick_exit_forks: exit status" 4 "$(cat "$work/quick_exit_forks.status")"
"$report" --json "$work/quick_exit_forks.zst" >"$work/quick_exit_forks.json"
check_eq "quick_exit_forks: trace complete" true \
	"$(jq .trace.complete "$work/quick_exit_forks.json")"
check_eq "quick_exit_forks: the 50 children ended with status 9" 50 \
	"$(jq '[.processes[] | select(.origin == "fork" and .exit_status == 9)] | length' \
		"$work/quick_exit_forks.json")"

# A fork in a library's destructor that runs after the tracer's: glibc had
# dropped the tracer's fork handlers, and the child wrote its parent's
# records again (a corrupt trace); the fork mark notices it now.
GITTRACE_TEST_EARLY=fini_fork LD_PRELOAD=$early run_status "$work/fini_fork.plain" "$prog" exit_300
GITTRACE_TEST_EARLY=fini_fork GITTRACE_OUTPUT=$work/fini_fork.zst LD_PRELOAD=$preload:$early \
	run_status "$work/fini_fork" "$prog" exit_300
check_eq "fini_fork: untraced output" "early: child status 7" "$(cat "$work/fini_fork.plain.stdout")"
same_outcome "fini_fork" "$work/fini_fork.plain" "$work/fini_fork" 0
"$report" --json "$work/fini_fork.zst" >"$work/fini_fork.json" 2>"$work/fini_fork.report.err" ||
	fail "fini_fork: the report failed: $(cat "$work/fini_fork.report.err")"
check_eq "fini_fork: trace complete" true "$(jq .trace.complete "$work/fini_fork.json")"
check_eq "fini_fork: the program and its forked child, with their exit statuses" "fork:7 root:44" \
	"$(jq -r '[.processes[] | "\(.origin):\(.exit_status)"] | sort | join(" ")' "$work/fini_fork.json")"
check_eq "fini_fork: the child's calls" 500 \
	"$(jq '[.processes[] | select(.origin == "fork") | .calls.malloc] | add' "$work/fini_fork.json")"

# A signal handler forks while the tracer writes the END of _exit, or of
# exit after its finalizer (tests/progs/end_fork.c): the child goes on past
# its last hook, and had no image.
for mode in _exit exit; do
	run_status "$work/end_fork$mode.plain" "$end_fork" "$mode"
	GITTRACE_OUTPUT=$work/end_fork$mode.zst run_status "$work/end_fork$mode" \
		run_traced "$preload" "$end_fork" "$mode"
	same_outcome "end_fork $mode" "$work/end_fork$mode.plain" "$work/end_fork$mode" 0
	"$report" --json "$work/end_fork$mode.zst" >"$work/end_fork$mode.json" \
		2>"$work/end_fork$mode.report.err" ||
		fail "end_fork $mode: the report failed: $(cat "$work/end_fork$mode.report.err")"
	check_eq "end_fork $mode: trace complete" true "$(jq .trace.complete "$work/end_fork$mode.json")"
	check_eq "end_fork $mode: the program and its child, with their exit statuses" \
		"fork:5 root:5" \
		"$(jq -r '[.processes[] | "\(.origin):\(.exit_status)"] | sort | join(" ")' \
			"$work/end_fork$mode.json")"
done

check_eq "exit_group: untraced exit status" 3 "$(cat "$work/exit_group.plain.status")"
check_eq "exit_group: the END is an _exit's" "reason=_exit status=3" \
	"$(grep " END " "$work/exit_group.dump" | grep -o 'reason=[a-z_]* status=[0-9-]*')"
finish
