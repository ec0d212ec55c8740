# output_files.sh: one traced run (root and all descendants) writes exactly
# one trace file, and a new run never appends to an older run's file: with
# GITTRACE_OUTPUT unset (files in the current directory), and with
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

mkdir "$work/cwd" "$work/outdir"
for run in 1 2; do
	(cd "$work/cwd" && unset GITTRACE_OUTPUT && run_traced "$preload" "$prog" "$work/r$run" >/dev/null)
	(GITTRACE_OUTPUT=$work/outdir run_traced "$preload" "$prog" "$work/o$run" >/dev/null)
	check_eq "run $run: files in the current directory" $run \
		"$(find "$work/cwd" -maxdepth 1 -name 'gittrace.*.zst' | wc -l)"
	check_eq "run $run: files in GITTRACE_OUTPUT=dir" $run "$(find "$work/outdir" -type f | wc -l)"
done
check_eq "nothing else in the current directory" 2 "$(find "$work/cwd" -mindepth 1 | wc -l)"
# Each file holds one whole run (known_calls makes four images), no more.
for f in "$work"/cwd/gittrace.*.zst "$work"/outdir/*; do
	check_eq "images in $(basename "$f")" 4 "$(images_in "$f")"
done

named=$work/named.zst
for run in 1 2; do
	GITTRACE_OUTPUT=$named run_traced "$preload" "$prog" "$work/n$run" >/dev/null
	check_eq "named file, run $run: the run's images alone" 4 "$(images_in "$named")"
done
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
# What --confirm would run: each process's own tree's command; the run's,
# that of the tree that took the most CPU time (known_calls' four images).
confirm_of() {
	jq -r "$1"' | .verdict.suggestions[] | select(contains("--confirm --"))
		| sub(".*--confirm -- "; "") | sub(" [(]or gittrace ab .*"; "")' "$work/named.json"
}
check_eq "two runs at once: the run's command to confirm" "$prog $work/n3" "$(confirm_of .)"
check_eq "two runs at once: cat's" "cat $work/gate" \
	"$(confirm_of '.processes[] | select(.argv[0] == "cat")')"
finish
