# lib.sh: the behaviour-preservation harness (sourced, not run). A case runs
# one git command twice on identical fresh copies of a fixture, at the same
# path: untraced, then traced. Everything git shows — stdout, stderr, exit
# status — and the repositories it leaves must be identical; the traced
# run's trace must hold exactly the processes git's own trace2 saw, with no
# record lost (checks.sh).
#
# Callers set: preload, report, work (an empty directory), fixture (built
# by make_fixture).
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
use_git
. "$(dirname "${BASH_SOURCE[0]}")/checks.sh"

# Every input git reads is pinned so that two runs can be compared byte for
# byte: no user or system configuration, fixed identities and dates, UTC.
pin_git_env() {
	mkdir -p "$work/home"
	export HOME=$work/home TZ=UTC GIT_TERMINAL_PROMPT=0
	# The build tree lies inside gittrace's own repository: never find it.
	export GIT_CEILING_DIRECTORIES=$work
	export GIT_AUTHOR_NAME="Behaviour Author" GIT_AUTHOR_EMAIL=author@example.com
	export GIT_COMMITTER_NAME="Behaviour Committer" GIT_COMMITTER_EMAIL=committer@example.com
	export GIT_AUTHOR_DATE="1700000000 +0000" GIT_COMMITTER_DATE="1700000000 +0000"
	clean_gittrace_env
}

# make_fixture MAKE_DEMO: builds $fixture, the tree every case starts from:
#   origin.git    demo repository (bare, one pack), plus branch "next"
#                 that the clone below has not seen (for fetch)
#   wt/           a clone of origin.git (its remote: $fixture's origin.git) with a work tree, branch "side"
#                 forked 3 commits back with one commit of its own
#   imported.git  an empty bare repository (for fast-import)
#   export.fi     `git fast-export --all` of origin.git
#   copy.pack     a copy of origin.git's pack (for index-pack)
# Every repository has gc.auto=0 and maintenance.auto=false (no background
# gc deciding by itself whether to run) and pack.threads=1 (pack bytes do
# not depend on thread timing, so they can be compared).
make_fixture() {
	local make_demo=$1 f=$fixture
	rm -rf "$f"
	mkdir -p "$f"
	demo_repo "$make_demo" "$f/origin.git" 2
	"$GIT" init -q --bare "$f/imported.git"
	for r in origin.git imported.git; do
		"$GIT" -C "$f/$r" config gc.auto 0
		"$GIT" -C "$f/$r" config maintenance.auto false
		"$GIT" -C "$f/$r" config pack.threads 1
	done
	"$GIT" -C "$f/origin.git" fast-export --all >"$f/export.fi"
	cp "$f"/origin.git/objects/pack/*.pack "$f/copy.pack"
	"$GIT" clone -q --no-local "$f/origin.git" "$f/wt"
	"$GIT" -C "$f/wt" config gc.auto 0
	"$GIT" -C "$f/wt" config maintenance.auto false
	"$GIT" -C "$f/wt" config pack.threads 1
	(
		cd "$f/wt"
		"$GIT" checkout -q -b side HEAD~3
		# Files move between directories: take them by position.
		echo "a line from the side branch" >>"$("$GIT" ls-files | sed -n 1p)"
		"$GIT" commit -q -am "side: one more line"
		"$GIT" checkout -q main
		# A commit on origin that wt has not fetched.
		"$GIT" checkout -q -b next
		echo "a line only origin has" >>"$("$GIT" ls-files | sed -n 2p)"
		"$GIT" commit -q -am "next: one more line"
		"$GIT" push -q origin next
		"$GIT" checkout -q main
		"$GIT" branch -q -D next
		"$GIT" update-ref -d refs/remotes/origin/next
	)
}

# repo_state DIR: prints what the repositories under DIR hold, for the
# untraced and traced runs to be compared: for each repository (DIR's
# subdirectories that are one), its refs, HEAD, object set, work tree status
# and the bytes of every file under objects/; and the bytes of the other
# top-level files of DIR. Read with an untraced git.
repo_state() {
	local top=$1 d gd
	for d in "$top"/*/; do
		d=${d%/}
		gd=$("$GIT" -C "$d" rev-parse --absolute-git-dir 2>/dev/null) || continue
		[ "$(dirname "$gd")" = "$d" ] || [ "$gd" = "$d" ] || continue
		echo "== repository $(basename "$d")"
		"$GIT" -C "$d" for-each-ref --format='%(objectname) %(refname) %(symref)'
		echo "HEAD: $("$GIT" -C "$d" rev-parse HEAD 2>&1)"
		echo "HEAD -> $("$GIT" -C "$d" symbolic-ref -q HEAD 2>&1)"
		"$GIT" -C "$d" cat-file --batch-all-objects --batch-check
		if [ "$("$GIT" -C "$d" rev-parse --is-bare-repository)" = false ]; then
			echo "-- status"
			"$GIT" -C "$d" status --porcelain=v1 --untracked-files=all
		fi
		echo "-- files under objects/"
		(cd "$gd" && find objects -type f | sort | xargs -r sha256sum)
	done
	echo "== other files"
	(cd "$top" && find . -maxdepth 1 -type f | sort | xargs -r sha256sum)
}

# begin_run MODE NAME: a fresh copy of the fixture at $work/run (the same
# path in both modes, so paths git prints agree), and in run_env the
# environment of a run of NAME in MODE: both modes write trace2 event files
# to $work/NAME.MODE.trace2/; MODE traced adds the preload, writing
# $work/NAME.zst.
begin_run() {
	local mode=$1 name=$2 out=$work/$2.$1
	rm -rf "$work/run" "$out" "$out.trace2" "$work/$name.zst"
	mkdir -p "$out.trace2"
	cp -a "$fixture" "$work/run"
	run_env=(GIT_TRACE2_EVENT="$out.trace2/")
	[ "$mode" = plain ] || run_env+=(GITTRACE_OUTPUT="$work/$name.zst" LD_PRELOAD="$preload")
}

# end_run OUT: keeps the run's tree as OUT, with what it holds in OUT.state.
end_run() {
	repo_state "$work/run" >"$1.state"
	mv "$work/run" "$1"
}

# run_once MODE NAME DIR STDIN GIT-ARGS...: one run of a case at
# $work/run (begin_run), then keeps the tree as $work/NAME.MODE with
# NAME.MODE.{stdout,stderr,status,state} beside it.
run_once() {
	local mode=$1 name=$2 dir=$3 input=$4
	shift 4
	begin_run "$mode" "$name"
	(cd "$work/run/$dir" && run_status "$work/$name.$mode" env "${run_env[@]}" "$GIT" "$@" \
		<"$input")
	end_run "$work/$name.$mode"
}

# same_run NAME: the traced run of NAME showed and left exactly what the
# untraced one did.
same_run() {
	local a=$work/$1.plain b=$work/$1.traced
	same_outcome "$1" "$a" "$b" 0
	same_files "$1: repository state" "$a.state" "$b.state"
	check_eq "$1: git processes (trace2 files)" "$(ls "$a.trace2" | wc -l)" \
		"$(ls "$b.trace2" | wc -l)"
}

# git_case NAME DIR [STDIN] -- GIT-ARGS...: runs GIT-ARGS in the fixture's
# DIR untraced and traced, compares them, and audits the trace. STDIN is a
# file under the fixture (default: /dev/null).
git_case() {
	local name=$1 dir=$2 input=/dev/null
	shift 2
	if [ "$1" != -- ]; then
		input=$work/run/$1
		shift
	fi
	shift
	echo "--- $name: git $*"
	run_once plain "$name" "$dir" "$input" "$@"
	run_once traced "$name" "$dir" "$input" "$@"
	same_run "$name"
	check_trace "$name" "$work/$name.zst" "$work/$name.traced.trace2" complete
}
