# git_commands.sh: real git commands (Debian's /usr/bin/git) run untraced
# and traced on identical fresh copies of a generated repository: reads,
# writes, threads, children, a command that dies (exit 128) and one killed
# by a signal. Each must print, exit and leave its repositories exactly as
# without the preload (lib.sh), and its trace must hold exactly the
# processes trace2 saw, with nothing lost (checks.sh).
#
# usage: bash git_commands.sh PRELOAD REPORT MAKE_DEMO WORKDIR CASE...
# CASE is a name below, or "all". No output line of git depends on timing
# here (progress meters are off: stderr is not a terminal), so nothing is
# filtered before comparing.
. "$(dirname "$0")/lib.sh"

[ $# -ge 5 ] || fail "usage: git_commands.sh PRELOAD REPORT MAKE_DEMO WORKDIR CASE..."
preload=$1 report=$2 make_demo=$3 work=$4
shift 4
fresh_dir "$work"
fixture=$work/fixture
pin_git_env
fixture=$work/fixture.clean make_fixture "$make_demo"

# A change in the work tree, for the cases that look at or commit one.
edit_fixture() {
	echo "an uncommitted line" >>"$fixture/wt/$("$GIT" -C "$fixture/wt" ls-files | sed -n 3p)"
	echo "an untracked file" >"$fixture/wt/notes.txt"
}

case_status() {
	edit_fixture
	git_case status wt -- status
}
case_log() { git_case log wt -- log --raw --all; }
case_rev_list() { git_case rev_list origin.git -- rev-list --objects --all; }
case_cat_file() { git_case cat_file origin.git -- cat-file --batch-all-objects --batch; }
# git grep prints in file order whatever the thread that searched.
case_grep() { git_case grep wt -- -c grep.threads=2 grep --threads=2 -n -e "pack window" -e delta; }
case_repack() { git_case repack origin.git -- repack -adf; }
# gc runs pack-refs, reflog expire, repack (and its pack-objects), prune,
# worktree prune and rerere gc: several children.
case_gc() {
	git_case gc wt -- gc
	# It maps the work tree's loose objects to pack them: no advice to run gc.
	check_eq "gc: its loose objects, packed by the run itself" 1 \
		"$(jq '[.verdict.evidence[] | select(test("loose objects mapped: .*, which the run.s git gc packs"))] | length' "$work/gc.json")"
	check_eq "gc: no suggestion to run git gc" 0 \
		"$(jq '[.verdict.suggestions[], .processes[].verdict.suggestions[] | select(test("^run git gc"))] | length' "$work/gc.json")"
}
case_fsck() { git_case fsck origin.git -- fsck --full --strict; }
# --no-local: upload-pack, pack-objects and index-pack instead of copying files.
case_clone() { git_case clone . -- clone --no-local origin.git cloned; }
# file:// goes through upload-pack too; the run's path is the same in both runs.
case_fetch() { git_case fetch wt -- fetch "file://$work/run/origin.git" next:refs/remotes/origin/next; }
case_index_pack() { git_case index_pack . -- index-pack -o copy.idx copy.pack; }
case_commit() {
	edit_fixture
	git_case commit wt -- commit -q -am "a change"
}
case_checkout() { git_case checkout wt -- checkout -b old HEAD~10; }
case_merge() { git_case merge wt -- merge --no-edit side; }
case_fast_import() { git_case fast_import imported.git export.fi -- fast-import; }
# die() exits 128: the status must pass through the tracer's exit handling.
case_die() {
	git_case die wt -- rev-parse nosuchref
	check_eq "die: git's status" 128 "$(cat "$work/die.plain.status")"
	check_eq "die: status in the report" 128 "$(jq '.processes[0].exit_status' "$work/die.json")"
}

# killed_once MODE: `git cat-file --batch` reads requests from a fifo; after
# two answers it gets SIGTERM. With the default flush interval (a second),
# the traced run's calls are still in the tracer's buffer then: the tracer
# writes them as the signal ends the process.
killed_once() {
	local mode=$1 out=$work/killed.$1 run=$work/run pid status
	begin_run "$mode" killed
	mkfifo "$run/requests"
	# Read-write: opening the fifo does not wait for the reader.
	exec 9<>"$run/requests"
	(cd "$run/origin.git" && exec env "${run_env[@]}" "$GIT" cat-file --batch \
		<"$run/requests" >"$out.stdout" 2>"$out.stderr") &
	pid=$!
	# answered N: waits until git has printed N commits (and is still alive).
	answered() {
		while [ "$(cat "$out.stdout" 2>/dev/null | grep -c '^change')" -lt "$1" ]; do
			kill -0 "$pid" 2>/dev/null || fail "killed: git cat-file --batch ended early"
			sleep 0.05
		done
	}
	echo HEAD >&9
	answered 1
	echo HEAD~1 >&9
	answered 2
	kill -TERM "$pid"
	set +e
	wait "$pid"
	status=$?
	set -e
	exec 9>&-
	rm "$run/requests"
	echo "$status" >"$out.status"
	end_run "$out"
}

case_killed() {
	echo "--- killed: git cat-file --batch, then SIGTERM"
	killed_once plain
	killed_once traced
	check_eq "killed: git's status (128 + SIGTERM)" 143 "$(cat "$work/killed.plain.status")"
	same_run killed
	check_trace killed "$work/killed.zst" "$work/killed.traced.trace2" SIGTERM
}

# Issue 5: a record the tracer had to drop is counted in the trace (END's
# dropped, DROPPED records) *and reported*. Each image's count in the
# --json report ("dropped_calls") must equal the trace's; in a normal run, 0.
case_report_dropped() {
	git_case report_dropped wt -- log --raw
	local w=$work/report_dropped
	"$report" --dump "$w.zst" | awk '$4 == "END" || $4 == "DROPPED" { split($1, a, "=") }
		$4 == "END" { for (i = 5; i <= NF; i++) if ($i ~ /^dropped=/) n[a[2]] += substr($i, 9) }
		$4 == "DROPPED" { n[a[2]] += substr($5, 7) }
		$4 == "IMAGE" { split($1, a, "="); n[a[2]] += 0 }
		END { for (i in n) print i, n[i] }' | sort >"$w.dropped.trace"
	jq -r '.processes[] | "\(.image_id) \(.dropped_calls)"' "$w.json" | sort >"$w.dropped.reported"
	same_files "report_dropped: dropped calls per image (trace vs report)" "$w.dropped.trace" \
		"$w.dropped.reported"
}

all="status log rev_list cat_file grep repack gc fsck clone fetch index_pack commit checkout
	merge fast_import die killed"
[ "$*" != all ] || set -- $all
for c in "$@"; do
	declare -F "case_$c" >/dev/null || fail "no case '$c' (cases: $all)"
	# Each case edits the fixture at most for itself.
	rm -rf "$fixture"
	cp -a "$work/fixture.clean" "$fixture"
	"case_$c"
done
finish
