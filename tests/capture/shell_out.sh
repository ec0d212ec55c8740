# shell_out.sh: a program that shells out with system(), popen() and
# wordexp() keeps its whole tree in one trace. glibc starts those shells
# with its internal posix_spawn, past the exec and spawn hooks; without the
# system, popen and wordexp hooks (hooks_process.c) each shell took itself
# for a new run and truncated the file GITTRACE_OUTPUT named, or, unnamed,
# wrote one file of its own.
#
# usage: bash shell_out.sh PRELOAD REPORT SHELL_OUT WORKDIR
. "$(dirname "$0")/../lib.sh"

[ $# -eq 4 ] || fail "usage: shell_out.sh PRELOAD REPORT SHELL_OUT WORKDIR"
preload=$1 report=$2 prog=$3 work=$4
fresh_dir "$work"
use_git

plain=$("$prog" "git --version")
traced=$(GITTRACE_OUTPUT="$work/trace.zst" run_traced "$preload" "$prog" "git --version")
check_eq "output as untraced" "$plain" "$traced"
"$report" --json "$work/trace.zst" >"$work/report.json"
check_eq "trace complete" true "$(jq .trace.complete "$work/report.json")"
check_eq "one root: the program" '["shell_out"]' \
	"$(jq -c '[.processes[] | select(.origin == "root") | .argv[0] | split("/") | last]' \
		"$work/report.json")"
check_eq "a shell per call" 3 \
	"$(jq '[.processes[] | select(.argv[1:] == ["-c", "git --version"])] | length' \
		"$work/report.json")"
check_eq "git per call" 3 \
	"$(jq '[.processes[] | select(.argv == ["git", "--version"])] | length' "$work/report.json")"

# Unnamed: one file in $TMPDIR, holding the whole tree.
mkdir "$work/cwd" "$work/tmp"
(cd "$work/cwd" && unset GITTRACE_OUTPUT && TMPDIR=$work/tmp run_traced "$preload" "$prog" \
	"git --version" >/dev/null)
check_eq "files in TMPDIR" 1 "$(find "$work/tmp" -mindepth 1 | wc -l)"
check_eq "nothing in the current directory" 0 "$(find "$work/cwd" -mindepth 1 | wc -l)"
for f in "$work"/tmp/*; do
	check_eq "git images in $(basename "$f")" 3 \
		"$("$report" --json "$f" | jq '[.processes[] | select(.argv[0] == "git")] | length')"
done
finish
