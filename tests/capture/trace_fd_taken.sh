# trace_fd_taken.sh: a program that closes the trace file's descriptor, or
# puts a file of its own on its number, keeps its trace and its file. The
# writer finds its descriptor gone at the next block and opens the run's
# file again by its path (session.c, gt_session_reopen): no warning, a
# complete trace, and not a byte in the program's file. Here bash does it
# to every descriptor from 700 up (where the tracer keeps its own) before
# it execs git, as daemons and Python's close_fds do after a fork.
# And a bash script's redirections onto the tracer's numbers (700-702) do
# what they do untraced: bash asks whether a number is open (F_GETFD) and
# put back a close-on-exec descriptor it took for its own after `exec
# 700>file`; `>&700` on a number the script never opened must fail, also
# once tracing has stopped.
#
# usage: bash trace_fd_taken.sh PRELOAD REPORT WORKDIR
. "$(dirname "$0")/../lib.sh"

[ $# -eq 3 ] || fail "usage: trace_fd_taken.sh PRELOAD REPORT WORKDIR"
preload=$1 report=$2 work=$3
fresh_dir "$work"
use_git

# each_high_fd ACTION: bash code running ACTION (a redirection) on each
# descriptor from 700 up, then exec'ing git.
each_high_fd() {
	echo 'for fd in /proc/$$/fd/*; do n=${fd##*/}; [ "$n" -ge 700 ] && eval "exec $n'"$1"'"; done; exec git --version'
}

for how in closed taken; do
	case $how in
	closed) script=$(each_high_fd '>&-') ;;
	taken) script=$(each_high_fd '>>$PWD/mine') ;;
	esac
	plain=$(cd "$work" && bash -c "$script" 2>"$work/$how.plain.err")
	rm -f "$work/mine"
	traced=$(cd "$work" && GITTRACE_OUTPUT="$work/$how.zst" run_traced "$preload" \
		bash -c "$script" 2>"$work/$how.err")
	check_eq "$how: output as untraced" "$plain" "$traced"
	same_files "$how: stderr as untraced" "$work/$how.plain.err" "$work/$how.err"
	"$report" --json "$work/$how.zst" >"$work/$how.json"
	check_eq "$how: trace complete" true "$(jq .trace.complete "$work/$how.json")"
	check_eq "$how: bash and git traced" '["bash","git"]' \
		"$(jq -c '[.processes[] | .argv[0] | split("/") | last] | sort' "$work/$how.json")"
done
check_eq "the program's own file: empty" 0 "$(stat -c %s "$work/mine")"

script='echo "never opened" >&700 || echo "700 not open"
exec 700>a700 701>a701 702>a702
for n in 700 701 702; do echo "exec $n" >&$n; done
{ echo "one command" >&700; } 700>b700
git --version
for n in 700 701 702; do echo "again $n" >&$n; done
exec 700>&- 701>&- 702>&-
cat <&701 || echo "701 closed"
cat a700 a701 a702 b700'
mkdir "$work/redir.plain" "$work/redir.traced"
(cd "$work/redir.plain" && bash -c "$script" >../redir.plain.out 2>&1)
(cd "$work/redir.traced" && GITTRACE_OUTPUT="$work/redir.zst" run_traced "$preload" \
	bash -c "$script" >../redir.out 2>&1)
cat "$work/redir.out"
same_files "bash's redirections onto 700-702: output as untraced" "$work/redir.plain.out" \
	"$work/redir.out"
"$report" --json "$work/redir.zst" >"$work/redir.json"
check_eq "bash's redirections: trace complete" true "$(jq .trace.complete "$work/redir.json")"
check_eq "bash's redirections: bash, git and cat traced" '["bash","cat","git"]' \
	"$(jq -c '[.processes[] | .argv[0] | split("/") | last] | unique' "$work/redir.json")"

# Tracing stopped at the file size limit: the numbers still look closed
# (libunwind's pipe stayed, and took the script's writes).
# The loop's calls fill more than a block of the smallest size (64 KiB).
script='ulimit -f 1; for i in $(seq 20000); do x=$i; done
for n in 700 701 702; do { echo x >&$n; } 2>/dev/null || echo "$n closed"; done'
plain=$(bash -c "$script")
traced=$(GITTRACE_OUTPUT="$work/stopped.zst" GITTRACE_BUFFER_SIZE=65536 \
	run_traced "$preload" bash -c "$script" 2>"$work/stopped.err")
check_grep "stopped: tracing stopped at the limit" "file size limit" "$work/stopped.err"
check_eq "stopped: 700-702 look closed as untraced" "$plain" "$traced"

# Under a descriptor limit below 700 the tracer's own go to the top quarter
# (192 and up of 256), away from the numbers a shell's exec 3> takes.
script='exec 3>f3; echo hi >&3; ls /proc/$$/fd; exec git --version'
plain=$(cd "$work" && ulimit -n 256 && bash -c "$script")
traced=$(cd "$work" && ulimit -n 256 && GITTRACE_OUTPUT="$work/low.zst" run_traced "$preload" \
	bash -c "$script" 2>"$work/low.err")
check_eq "low limit: no warning" "" "$(cat "$work/low.err")"
check_eq "low limit: the shell's file" hi "$(cat "$work/f3")"
check_eq "low limit: descriptors the tracer added, below 192" "" \
	"$(comm -13 <(echo "$plain" | sort) <(echo "$traced" | sort) | awk '$1 < 192')"
check_eq "low limit: trace complete" true \
	"$("$report" --json "$work/low.zst" | jq .trace.complete)"
finish
