# output_files.sh: one traced run (root and all descendants) writes exactly
# one trace file, and a new run never appends to an older run's file: with
# GITTRACE_OUTPUT unset (files in the current directory), and with
# GITTRACE_OUTPUT naming a directory.
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
finish
