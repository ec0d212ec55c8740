# test_launcher.sh: `gittrace [options] -- CMD` passes CMD's exit status,
# stdout and stderr through untouched (the report comes after, on stderr or
# with --stdout on stdout), keeps the user's LD_PRELOAD, and reports usage
# errors with status 2.
#
# usage: bash test_launcher.sh GITTRACE PRELOAD REPORT WORKDIR
. "$(dirname "$0")/../tests/lib.sh"

[ $# -eq 4 ] || fail "usage: test_launcher.sh GITTRACE PRELOAD REPORT WORKDIR"
gittrace=$1 preload=$2 report=$3 work=$4
fresh_dir "$work"
cd "$work"

# run CMD...: runs CMD, whatever its exit status, and leaves it in $st.
run() {
	set +e
	"$@"
	st=$?
	set -e
}

script='echo out; echo err >&2; exit 3'
run sh -c "$script" >plain.out 2>plain.err
plain=$st
run "$gittrace" -o t.zst -- sh -c "$script" >traced.out 2>traced.err
check_eq "exit status" "$plain" "$st"
check_eq "stdout" "$(cat plain.out)" "$(cat traced.out)"
check_eq "stderr starts with the command's own" "$(cat plain.err)" "$(head -n 1 traced.err)"
grep -q 'gittrace: trace kept in' traced.err || fail "no note of the kept trace"
[ -s t.zst ] || fail "-o t.zst: no trace"
echo "ok: the report follows on stderr ($(wc -l <traced.err) lines)"

# --stdout --json: the command's output, then the report as JSON.
run "$gittrace" --stdout --json -- echo hello >j.out 2>j.err
check_eq "--stdout status" 0 "$st"
check_eq "--stdout: command output first" hello "$(head -n 1 j.out)"
check_eq "--stdout: a JSON report after it" 1 "$(tail -n +2 j.out | jq .gittrace_report)"
check_eq "--stdout: stderr quiet" "" "$(cat j.err)"

# --confirm: the remedies the trace points at are measured and joined to
# their predictions. Only the shape is checked: the numbers are timings.
git init -q repo
for i in $(seq 30); do
	# Incompressible, so that the pack is many 8 KiB windows long.
	head -c 3000 /dev/urandom | base64 >repo/f$i
	git -C repo add f$i
	git -C repo -c user.name=t -c user.email=t@t commit -qm "c$i"
done
git -C repo gc -q
git -C repo config core.packedGitWindowSize 8k
git -C repo config core.packedGitLimit 16k
run "$gittrace" --confirm --rounds=2 --stdout --json -- git -C repo log -p >c.out 2>c.err
check_eq "--confirm status" 0 "$st"
# The JSON starts on the line before its first member.
start=$(($(grep -n '"gittrace_report"' c.out | head -n 1 | cut -d: -f1) - 1))
tail -n +"$start" c.out >c.json
check_eq "--confirm: predicted class is the verdict's" true \
	"$(jq '.confirmation.predicted_class == .verdict.class' c.json)"
check_eq "--confirm: a confirmed class" true \
	"$(jq '.confirmation.class | IN("window-bound", "allocator-bound", "neither", "unclear")' c.json)"
check_eq "--confirm: remedies measured" '["default-windows","jemalloc","mimalloc"]' \
	"$(jq -c '[.confirmation.effects[].remedy] | sort' c.json)"
check_eq "--confirm: each effect has its CI and prediction" true \
	"$(jq '[.confirmation.effects[] | (.ci_low <= .ratio and .ratio <= .ci_high and
		(.predicted_gain | type) == "number")] | all' c.json)"
check_eq "--confirm: no settings given inside the command" null \
	"$(jq '.verdict.settings_given_inside' c.json)"
# -c given to a git that a script runs ranks above the settings gittrace ab
# varies: git's default windows are not measured, and gittrace says why
# (before, it printed the unchanged command's measurement as theirs).
inside='-c core.packedGitWindowSize=8k -c core.packedGitLimit=16k'
run "$gittrace" --confirm --rounds=2 --stdout --json -- \
	sh -c "git -C repo $inside log -p >/dev/null" >s.out 2>s.err
check_eq "--confirm, settings inside: status" 0 "$st"
check_grep "--confirm, settings inside: says why" "^gittrace: a git the command runs is given $inside" s.err
start=$(($(grep -n '"gittrace_report"' s.out | head -n 1 | cut -d: -f1) - 1))
tail -n +"$start" s.out >s.json
check_eq "--confirm, settings inside: in the report" "\"$inside\"" \
	"$(jq '.verdict.settings_given_inside' s.json)"
check_eq "--confirm, settings inside: default windows not measured" false \
	"$(jq '[.confirmation.effects[].remedy] | index("default-windows") != null' s.json)"
# The command's own -c: gittrace ab replaces them in its copy of the command.
# shellcheck disable=SC2086 # the settings, as words
run "$gittrace" --json -- git -C repo $inside log -p >/dev/null 2>o.err
check_eq "the command's own -c: not inside" null "$(jq '.verdict.settings_given_inside' o.err)"
# --html: the page, with the confirmation after the verdict.
run "$gittrace" --confirm --rounds=2 --html=c.html -- git -C repo log -p >/dev/null 2>&1
check_eq "--confirm --html status" 0 "$st"
check_eq "--html: the confirmation section" 1 "$(grep -c 'id="gt-confirmation"' c.html)"
check_eq "--html: after the verdict" true \
	"$([ "$(grep -n 'id="gt-verdict"' c.html | cut -d: -f1)" -lt \
		"$(grep -n 'id="gt-confirmation"' c.html | cut -d: -f1)" ] && echo true)"
check_eq "--html: a row per remedy" 3 \
	"$(sed -n '/id="gt-confirmation"/,/<\/table>/p' c.html | grep -o '<tr><td>' | wc -l)"
run "$gittrace" --template=nowhere --confirm -- true 2>/dev/null
check_eq "--template of no directory" 2 "$st"

# A command killed by a signal: gittrace dies of it too, after its report,
# so that its caller's wait status is the one it would have untraced, not
# an exit status of 128+N, which a command that exits with 128+N keeps
# (perl's $? is the raw wait status: signal, then exit status).
wait_status() {
	perl -e 'system @ARGV; printf "%d %d\n", $? & 127, $? >> 8' "$@" 2>/dev/null
}
run "$gittrace" -- sh -c 'kill -TERM $$' 2>/dev/null
check_eq "killed by SIGTERM: the shell's status" 143 "$st"
check_eq "killed by SIGTERM: dies of it" "15 0" \
	"$(wait_status "$gittrace" -- sh -c 'kill -TERM $$')"
check_eq "killed by SIGSEGV: dies of it" "11 0" \
	"$(ulimit -c 0; wait_status "$gittrace" -- sh -c 'kill -SEGV $$')"
check_eq "exit 143: exits with it" "0 143" "$(wait_status "$gittrace" -- sh -c 'exit 143')"
check_eq "killed by SIGTERM, -o, no temporary directory: its number" "0 143" \
	"$(TMPDIR=$PWD/no-such-dir wait_status "$gittrace" --no-report -o t143.zst -- \
		sh -c 'kill -TERM $$')"
# An install that lost gittrace-run: the command runs all the same, traced,
# and gittrace says what it cannot pass on.
sed "s|^run=.*|run=$PWD/no-such-runner|" "$gittrace" >no-runner && chmod +x no-runner
check_eq "no runner: the command's number" "0 143" \
	"$(wait_status ./no-runner --no-report -o nr.zst -- sh -c 'kill -TERM $$')"
run ./no-runner --no-report -o nr.zst -- sh -c 'exit 4' 2>nr.err
check_eq "no runner: status" 4 "$st"
check_grep "no runner: the warning" "no-such-runner' is missing" nr.err
check_eq "no runner: traced" "sh" \
	"$("$report" --json nr.zst | jq -r '.processes[] | select(.origin == "root") | .argv[0]')"
check_eq "the trace's root is the command" "sh" \
	"$("$report" --json t143.zst | jq -r '.processes[] | select(.origin == "root") | .argv[0]')"
# Ctrl-C: SIGINT to the whole process group (setsid makes one, env gives
# it SIGINT's default, which a script's background job does not have). The
# command, reading a fifo no one writes, dies of it; gittrace still prints
# the report, which holds the command's calls up to then, and then dies of
# SIGINT too: the script that ran it stops there, as without gittrace.
mkfifo idle
exec 8<>idle # a writer, so that opening it to read does not wait
env --default-signal=INT setsid -w bash -c '"$0" --stdout --json -- sh -c "echo ready; read x"
	echo "the script went on"' "$gittrace" <idle >int.out 2>int.err &
pid=$!
until grep -q ready int.out; do
	kill -0 "$pid" 2>/dev/null || fail "Ctrl-C: gittrace ended before the command was ready"
	sleep 0.05
done
kill -INT -- "-$pid"
run wait "$pid"
exec 8>&-
check_eq "Ctrl-C: status" 130 "$st"
check_eq "Ctrl-C: the report, killed by SIGINT" "sh:SIGINT" \
	"$(tail -n +2 int.out | jq -r '[.processes[] | "\(.argv[0]):\(.killed_by)"] | join(" ")')"
check_eq "Ctrl-C: the script that ran gittrace stopped" 0 "$(grep -c "went on" int.out || true)"

# A process the command leaves running (as git gc --auto does) writes the
# trace after the command ended: gittrace waits for it (it holds the trace
# file's lock), says so, and reports all of the run. The background job
# waits on a fifo, which this script opens once gittrace says it waits.
mkfifo gate
# await_wait NAME FILE PATTERN: until gittrace ($pid) says in FILE that it
# waits (PATTERN); if it ends first, lets the job waiting on the gate end
# and fails.
await_wait() {
	until grep -q "$3" "$2"; do
		kill -0 "$pid" 2>/dev/null || {
			echo go >gate
			fail "$1: gittrace reported without waiting"
		}
		sleep 0.05
	done
}
"$gittrace" --stdout --json -- sh -c '(read x <gate; echo left running) & echo ready' \
	>left.out 2>left.err &
pid=$!
await_wait "left running" left.err "waiting for the processes the command left running"
echo go >gate
run wait "$pid"
check_eq "left running: status" 0 "$st"
check_eq "left running: its output" "ready left running" "$(grep -v '^[{ ]' left.out | xargs)"
check_eq "left running: the report holds both, complete" "sh:true sh:true" \
	"$(sed -n '/^{/,$p' left.out | jq -r '[.processes[] | "\(.argv[0]):\(.complete)"] | join(" ")')"
# kill -USR1 of gittrace ends the wait and leaves the process running:
# Ctrl-C would reach it too (a credential cache daemon stays in the
# terminal's foreground group, and died of it with the passwords it kept).
"$gittrace" --stdout --json -- sh -c '(read x <gate; echo left running) & echo ready' \
	>usr1.out 2>usr1.err &
pid=$!
await_wait USR1 usr1.err "waiting for the processes"
grep -q "kill -USR1 $pid" usr1.err || {
	echo go >gate
	fail "USR1: the note does not say how to stop waiting: $(cat usr1.err)"
}
left=$(sed -n 's/.*left running: \([0-9]*\) sh.*/\1/p' usr1.err)
kill -USR1 "$pid"
run wait "$pid"
check_eq "USR1: status" 0 "$st"
check_eq "USR1: the process left running still runs" yes \
	"$(kill -0 "$left" 2>/dev/null && echo yes)"
check_eq "USR1: the report, incomplete" false "$(sed -n '/^{/,$p' usr1.out | jq .trace.complete)"
echo go >gate
# A process of the run that holds no lock is waited for too: between an
# exec and the new image's start the lock lapses, and so it does here for
# good, in a program the run executed untraced (its environment names the
# run's trace, as every process of the run's does).
"$gittrace" --stdout --json -- sh -c '(exec env -u LD_PRELOAD sh -c "read x <gate") & echo ready' \
	>untraced.out 2>untraced.err &
pid=$!
await_wait "left running untraced" untraced.err \
	"waiting for the processes the command left running: [0-9]* sh"
echo go >gate
run wait "$pid"
check_eq "left running untraced: status" 0 "$st"
# A process an earlier run left (a daemon), whose environment names the same
# -o file, is not the new run's: it started before the new gittrace. It
# holds no lock here (untraced), so only the start time tells it apart.
env GITTRACE_OUTPUT="$PWD/same.zst" sh -c 'read x <gate' &
earlier=$!
until grep -qszxF "GITTRACE_OUTPUT=$PWD/same.zst" "/proc/$earlier/environ"; do
	sleep 0.05
done
sleep 0.05 # start times count clock ticks (1/100 s): a later one
"$gittrace" -o same.zst -- sh -c 'echo traced' >same.out 2>same.err &
pid=$!
while kill -0 "$pid" 2>/dev/null && ! grep -q "waiting for the processes" same.err; do
	sleep 0.05
done
echo go >gate
run wait "$pid"
wait "$earlier"
check_eq "an earlier run's process: the run's status" 0 "$st"
check_eq "an earlier run's process: not waited for" "" "$(grep "waiting for the processes" same.err)"

# -o names the file to replace: a FIFO, a symlink (as /dev/stdout is), a
# device or a directory named by mistake is refused and left as it was
# (as root, `-o /dev/null` removed the machine's /dev/null).
mkfifo out.fifo
echo kept >link.target
ln -s link.target out.link
mkdir out.dir
refused="out.fifo out.link out.dir"
# a null device of its own: a regression must not take the machine's
! mknod out.dev c 1 3 2>/dev/null || refused="$refused out.dev"
for o in $refused; do
	run "$gittrace" --no-report -o "$o" -- true 2>refused.err
	check_eq "-o $o: refused" 2 "$st"
	grep -q "is a symbolic link or not a regular file" refused.err || fail "-o $o: $(cat refused.err)"
done
[ -p out.fifo ] && [ -L out.link ] && [ -d out.dir ] && { [ ! -e out.dev ] || [ -c out.dev ]; } ||
	fail "-o: a file refused was changed"
check_eq "-o of a symlink: its target untouched" kept "$(cat link.target)"

# gittrace inside a traced run, and from a shell that preloads libgittrace
# itself: the command is a run of its own, in the inner gittrace's file
# (before, it joined the outer run: "no trace was written" with -o, and
# nothing in the named file).
run "$gittrace" --no-report -o outer.zst -- sh -c "\"$gittrace\" --no-report -o inner.zst -- sleep 0" \
	2>nested.err
check_eq "nested: status" 0 "$st"
# exes RUN: the file names of the run's programs.
exes() { "$report" --json "$1" | jq -r '[.processes[].exe | split("/") | last] | join(" ")'; }
check_eq "nested: the inner run's processes" sleep "$(exes inner.zst)"
case " $(exes outer.zst) " in
*" sleep "*) fail "nested: the inner command in the outer run: $(exes outer.zst)" ;;
esac
# Straight inside another gittrace, which began at a request for a new run
# itself: the inner one makes its own.
run "$gittrace" --no-report -o outer2.zst -- "$gittrace" --no-report -o inner2.zst -- sleep 0 \
	2>nested2.err
check_eq "nested directly: status" 0 "$st"
check_eq "nested directly: the inner run's processes" sleep "$(exes inner2.zst)"
run env LD_PRELOAD="$preload" GITTRACE_OUTPUT="$PWD/shell.zst" \
	"$gittrace" --no-report -o mine.zst -- sleep 0 2>preloaded.err
check_eq "traced shell: status" 0 "$st"
check_eq "traced shell: the command's run" sleep "$(exes mine.zst)"
# The user's variables that the script's own names take reach the command
# as they came (before, with the script's values: trace its temporary
# file, depth empty, kept the LD_PRELOAD it built).
run env trace=T depth=D kept=K entry=E output=O workdir=W \
	"$gittrace" --no-report -o vars.zst -- sh -c 'echo "$trace $depth $kept $entry $output $workdir"' >vars.out
check_eq "the user's variables of the script's names" "T D K E O W" "$(cat vars.out)"
# Another copy of libgittrace.so in the user's LD_PRELOAD (another build) is
# left out: loaded twice, the second warned "running untraced". That copy
# traces the launcher's shell to its default file, kept here, not in /tmp.
mkdir -p other
cp "$preload" other/libgittrace.so
run env LD_PRELOAD="$PWD/other/libgittrace.so:libc_malloc_debug.so.0" TMPDIR="$PWD/other" \
	"$gittrace" --no-report -o two.zst -- printenv LD_PRELOAD >two.out 2>two.err
check_eq "another copy: the command's LD_PRELOAD" "$(realpath "$preload"):libc_malloc_debug.so.0" \
	"$(cat two.out)"
check_eq "another copy: stderr" "gittrace: trace kept in '$PWD/two.zst'" "$(cat two.err)"
check_eq "another copy: the shell's own trace" 1 "$(ls other/gittrace.*.zst | wc -l)"

run "$gittrace" -- ./no-such-command 2>/dev/null
check_eq "command not found" 127 "$st"

# SIGTERM to the run's process group (as timeout sends it): the command ends
# of it, then gittrace, with no report, and its temporary trace removed.
mkdir tmp-term
TMPDIR=$PWD/tmp-term setsid "$gittrace" -- sh -c 'echo ready; read x <gate' >term.out 2>term.err &
pid=$!
until grep -q ready term.out 2>/dev/null; do
	kill -0 "$pid" 2>/dev/null || fail "TERM: ended before it was ready"
	sleep 0.05
done
kill -TERM -- "-$pid"
run wait "$pid"
check_eq "TERM: gittrace's status" $((128 + 15)) "$st"
check_eq "TERM: the temporary trace removed" "" "$(ls -A tmp-term)"

# Its own output's reader gone (gittrace -- CMD 2>&1 | head -1): gittrace
# still exits with the command's status, and cleans up. The reader of the
# fifo that is gittrace's stderr closes it before the command ends.
mkdir tmp-pipe
mkfifo errfifo
TMPDIR=$PWD/tmp-pipe "$gittrace" -- sh -c 'read x <gate; exit 5' >pipe.out 2>errfifo &
pid=$!
exec 7<errfifo
exec 7<&-
echo go >gate
run wait "$pid"
check_eq "reader gone: the command's status" 5 "$st"
check_eq "reader gone: the temporary trace removed" "" "$(ls -A tmp-pipe)"

# An option's value as the next word, as getopt_long takes it.
run "$gittrace" --top 1 --depth 4 --stdout -- true >spaced.out 2>spaced.err
check_eq "--top 1 --depth 4: status" 0 "$st"
check_grep "--top 1 --depth 4: the report" "^gittrace-report: 1 process" spaced.out

# The user's LD_PRELOAD is kept, ours comes first (its hooks must be bound
# before another allocator's functions).
# (awk reads to the end: an early exit would kill ldconfig with SIGPIPE,
# which pipefail turns into a failure of this script.)
user_lib=$(ldconfig -p | awk '/libz\.so\.1 / && !found { print $NF; found = 1 }')
check_eq "LD_PRELOAD kept" "$preload:$user_lib" \
	"$(LD_PRELOAD=$user_lib "$gittrace" -- sh -c 'echo "$LD_PRELOAD"' 2>/dev/null)"

# Usage errors: status 2, one "gittrace:" line first.
run "$gittrace" 2>usage.err
check_eq "no command" 2 "$st"
grep -q '^gittrace: no command to run' usage.err || fail "no usage message: $(cat usage.err)"
run "$gittrace" --bogus -- true 2>/dev/null
check_eq "unknown option" 2 "$st"
run "$gittrace" --help >/dev/null
check_eq "--help" 0 "$st"
# `gittrace ab` is the A/B runner: its own usage, its own exit status.
run "$gittrace" ab --help >ab.out
check_eq "ab --help" 0 "$st"
grep -q 'gittrace-ab\|gittrace ab' ab.out || fail "ab --help is not the A/B runner's: $(cat ab.out)"
run "$gittrace" ab 2>/dev/null
check_eq "ab without a command" 2 "$st"

# Without -o the trace lives in a temporary directory, gone after the report.
mkdir tmp
run env TMPDIR="$work/tmp" "$gittrace" -- true 2>default.err
check_eq "default trace: status" 0 "$st"
grep -q 'gittrace: trace kept' default.err && fail "a temporary trace was reported as kept"
check_eq "default trace removed after the report" "" "$(ls -A tmp)"
finish
