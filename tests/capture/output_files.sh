# output_files.sh: one traced run (root and all descendants) writes exactly
# one trace file, and a new run never appends to an older run's file: with
# GITTRACE_OUTPUT unset (files in $TMPDIR, none in the current directory), and with
# GITTRACE_OUTPUT naming a directory. A file GITTRACE_OUTPUT names is
# replaced by the next run, but not while processes of another run write
# it (`git log | sort` traced whole has a root per command): then both
# runs are in it, whole (preload/session.c, the file's lock).
#
# usage: bash output_files.sh PRELOAD REPORT KNOWN_CALLS WORKDIR
. "$(dirname "$0")/../lib.sh"

[ $# -eq 4 ] || fail "usage: output_files.sh PRELOAD REPORT KNOWN_CALLS WORKDIR"
preload=$1 report=$2 prog=$3 work=$4
fresh_dir "$work"

# images_in FILE: the number of process images the analyzer finds in FILE.
images_in() {
	"$report" --json --top 1 "$1" | jq '.processes | length'
}

mkdir "$work/cwd" "$work/tmp" "$work/outdir"
for run in 1 2; do
	(cd "$work/cwd" && unset GITTRACE_OUTPUT && TMPDIR=$work/tmp run_traced "$preload" "$prog" \
		"$work/r$run" >/dev/null)
	(GITTRACE_OUTPUT=$work/outdir run_traced "$preload" "$prog" "$work/o$run" >/dev/null)
	check_eq "run $run: files in TMPDIR" $run \
		"$(find "$work/tmp" -maxdepth 1 -name 'gittrace.*.zst' | wc -l)"
	check_eq "run $run: files in GITTRACE_OUTPUT=dir" $run "$(find "$work/outdir" -type f | wc -l)"
done
check_eq "nothing else in TMPDIR" 2 "$(find "$work/tmp" -mindepth 1 | wc -l)"
check_eq "nothing in the current directory" 0 "$(find "$work/cwd" -mindepth 1 | wc -l)"
# Each file holds one whole run (known_calls makes four images), no more.
for f in "$work"/tmp/gittrace.*.zst "$work"/outdir/*; do
	check_eq "images in $(basename "$f")" 4 "$(images_in "$f")"
done

named=$work/named.zst
for run in 1 2; do
	GITTRACE_OUTPUT=$named run_traced "$preload" "$prog" "$work/n$run" >/dev/null
	check_eq "named file, run $run: the run's images alone" 4 "$(images_in "$named")"
done
# The commands of a pipeline, traced from a shell that is not: each is a
# root. The reader's starts only once the writer has ended and let go of
# the file's lock (the shell's builtin read waits on a fifo the writer's
# side writes after it): it joins the file by the pipe between them.
# Before, it replaced the file, and the writer's four images were gone.
mkfifo "$work/after"
# shellcheck disable=SC2016 # the inner shell expands them
bash -c '{ LD_PRELOAD=$1 GITTRACE_OUTPUT=$2 "$3" "$4"; echo >"$5"; } |
	{ read -r _ <"$5"; LD_PRELOAD=$1 GITTRACE_OUTPUT=$2 exec cat; }' \
	_ "$preload" "$named" "$prog" "$work/n5" "$work/after" >/dev/null
check_eq "a pipeline's reader started after its writer ended: both in the file" 5 \
	"$(images_in "$named")"
# Two runs one after the other that write into the same pipe (a script's
# output that its runner reads) hold the same end of it: the second
# replaces the file.
# shellcheck disable=SC2016
bash -c '{ LD_PRELOAD=$1 GITTRACE_OUTPUT=$2 "$3" "$4"; LD_PRELOAD=$1 GITTRACE_OUTPUT=$2 "$3" "$5"; } |
	cat' _ "$preload" "$named" "$prog" "$work/n6" "$work/n7" >/dev/null
check_eq "two runs into one pipe: the second's images alone" 4 "$(images_in "$named")"
# A root that starts while another still writes: cat, traced, waits on a
# fifo once its first block is in the file; known_calls runs meanwhile.
mkfifo "$work/gate"
GITTRACE_OUTPUT=$named run_traced "$preload" cat "$work/gate" >/dev/null &
cat_pid=$!
until [ -s "$named" ]; do
	kill -0 "$cat_pid" 2>/dev/null || fail "cat ended before it wrote"
	sleep 0.05
done
GITTRACE_OUTPUT=$named run_traced "$preload" "$prog" "$work/n3" >/dev/null
echo >"$work/gate"
wait "$cat_pid"
"$report" --json --top 1 "$named" >"$work/named.json" 2>"$work/named.err" ||
	fail "the report of two runs at once failed"
check_eq "two runs at once: the report's warnings" "" "$(cat "$work/named.err")"
check_complete "two runs at once" "$work/named.json"
check_eq "two runs at once: cat's image and known_calls' four" 5 \
	"$(jq '.processes | length' "$work/named.json")"
# The run it would join could not write all of it (the file's mark): the
# root says so, as that run's warning went to its own terminal.
chmod +t "$named"
flock -s "$named" cat "$work/gate" >/dev/null &
locker=$!
until ! flock -n -x "$named" true 2>/dev/null; do
	kill -0 "$locker" 2>/dev/null || fail "the lock's holder ended"
	sleep 0.05
done
GITTRACE_OUTPUT=$named run_status "$work/marked" run_traced "$preload" "$prog" "$work/n4"
echo >"$work/gate"
wait "$locker"
check_grep "joining a run that could not write: the root says so" \
	"is written by another run, which could not write all of it" "$work/marked.stderr"
# What --confirm would run: each process's own tree's command; the run's,
# that of the tree that took the most CPU time (known_calls' four images).
confirm_of() {
	jq -r "$1"' | .verdict.suggestions[] | select(contains("--confirm --"))
		| sub(".*--confirm -- "; "") | sub(" [(]or gittrace ab .*"; "")' "$work/named.json"
}
check_eq "two runs at once: the run's command to confirm" "$prog $work/n3" "$(confirm_of .)"
check_eq "two runs at once: cat's" "cat $work/gate" \
	"$(confirm_of '.processes[] | select(.argv[0] == "cat")')"
# With --pid, one process's images alone: its command to confirm is still
# the run's, not its own command line.
GITTRACE_OUTPUT=$work/pid.zst run_traced "$preload" sh -c 'sh -c "cat /dev/null"; echo o' >/dev/null
"$report" --json "$work/pid.zst" >"$work/named.json"
cat_pid=$(jq '.processes[] | select(.argv[0] == "cat") | .pid' "$work/named.json")
"$report" --json --pid "$cat_pid" "$work/pid.zst" >"$work/named.json"
check_eq "--pid: the command to confirm" "sh -c 'sh -c \"cat /dev/null\"; echo o'" "$(confirm_of .)"
finish
