# lib.sh: what only the gittrace-ab tests need (sourced, not run), on top
# of tests/lib.sh. Every check prints what it expected and what it got.
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
# The fake commands ask git for the variant's settings; no configuration of
# the machine or the user may add to them.
use_git
unset LD_PRELOAD GITTRACE_PRELOAD 2>/dev/null || true

# run_ab EXPECTED_STATUS OUT ERR ARGS...: runs gittrace-ab ($AB) with
# stdout in OUT and stderr in ERR, and fails unless it exits EXPECTED_STATUS.
run_ab() {
	local want=$1 out=$2 err=$3 status=0
	shift 3
	"$AB" "$@" >"$out" 2>"$err" || status=$?
	[ "$status" = "$want" ] ||
		fail "gittrace-ab $*: exit status $status, expected $want; stderr: $(cat "$err")"
}
