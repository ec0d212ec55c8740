# lib.sh: helpers for the tests that trace Debian's git (sourced, not run).
# Builds on the capture tests' helpers and pins git's environment so that
# neither the user's nor the system's configuration changes what git does.
. "$(dirname "${BASH_SOURCE[0]}")/../capture/lib.sh"

GIT=/usr/bin/git
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null GIT_PAGER=cat PAGER=cat
unset GIT_DIR GIT_WORK_TREE GIT_TRACE GIT_TRACE2 GIT_TRACE2_EVENT GITTRACE_OUTPUT 2>/dev/null || true

[ -x "$GIT" ] || fail "$GIT is missing (the git tests trace Debian's git)"

# demo_repo MAKE_DEMO DIR SCALE: a fresh demo repository at DIR.
demo_repo() {
	rm -rf "$2"
	sh "$1" "$2" "$3" || fail "make-demo-repo.sh failed"
}

# same_files WHAT FILE1 FILE2: fails unless both files have the same bytes.
same_files() {
	cmp -s "$2" "$3" || fail "$1 differ: $(diff "$2" "$3" | head -5)"
	echo "ok: same $1"
}
