# live.sh: --diff of two traces of the same `git -C REPO log --raw` on a
# demo repository, first with git's default windows, then with the tiny
# ones of examples/workloads/log-tiny-windows.sh set in the repository's
# config (same argv, so the processes match exactly): the pack maps and
# unmaps grow, and --fail-if-worse says so. The class change is timing
# (recorded.sh checks it on recorded traces). A trace against itself shows
# no change.
#
# usage: bash live.sh PRELOAD REPORT MAKE_DEMO WORKDIR
. "$(dirname "$0")/../lib.sh"
use_git
[ $# -eq 4 ] || fail "usage: live.sh PRELOAD REPORT MAKE_DEMO WORKDIR"
preload=$1 report=$2 make_demo=$3 work=$4
fresh_dir "$work"
# A pack of about 1 MB: several 64 KiB windows within a 256 KiB limit.
demo_repo "$make_demo" "$work/demo" 20

log_raw() { # log_raw TRACE
	GITTRACE_OUTPUT=$1 run_traced "$preload" "$GIT" -C "$work/demo" log --raw >/dev/null ||
		fail "git log --raw failed"
}
log_raw "$work/base.zst"
"$GIT" -C "$work/demo" config core.packedGitWindowSize 68k
"$GIT" -C "$work/demo" config core.packedGitLimit 256k
log_raw "$work/new.zst"

"$report" --diff --json "$work/base.zst" "$work/new.zst" >"$work/d.json" || fail "--diff failed"
p='.processes[0]'
check_eq "matched by argv" '["'"$GIT"'","-C","'"$work/demo"'","log","--raw"]' \
	"$(jq -c "$p | select(.base and .new) | .argv" "$work/d.json")"
check_eq "more pack maps" true "$(jq "$p.delta.maps.pack.mmaps > 0" "$work/d.json")"
check_eq "more pack unmaps" true "$(jq "$p.delta.maps.pack.munmaps > 0" "$work/d.json")"
check_eq "delta = new - base" true \
	"$(jq "$p | .delta.maps.pack.mmaps == .new.maps.by_kind.pack.mmaps - .base.maps.by_kind.pack.mmaps" "$work/d.json")"
"$report" --diff "$work/base.zst" "$work/new.zst" >"$work/d.txt" || fail "--diff (text) failed"
check_grep "text: pack mmaps grew" '^  pack mmaps +[0-9]+ +[0-9]+ +\+[1-9]' "$work/d.txt"

set +e
"$report" --diff --fail-if-worse=10 "$work/base.zst" "$work/new.zst" >/dev/null 2>"$work/err"
status=$?
set -e
check_eq "--fail-if-worse: exit status" 3 "$status"
check_grep "--fail-if-worse: pack maps" "^gittrace-report: worse: pack maps of '$GIT -C .* log --raw'" \
	"$work/err"

"$report" --diff --json --fail-if-worse=0 "$work/new.zst" "$work/new.zst" >"$work/self.json" ||
	check_failed "a trace against itself is worse"
check_eq "itself: all deltas zero" '[0]' \
	"$(jq -c '[.processes[].delta | .. | numbers] + [.sites[].delta[]] | unique' "$work/self.json")"
finish
