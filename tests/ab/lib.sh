# lib.sh: helpers for the gittrace-ab tests (sourced, not run). Every check
# prints what it expected and what it got, then the test fails.
set -euo pipefail
export LC_ALL=C
# The fake commands ask git for the variant's settings; no configuration of
# the machine or the user may add to them.
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
unset GIT_CONFIG_COUNT GIT_CONFIG_PARAMETERS LD_PRELOAD GITTRACE_PRELOAD 2>/dev/null || true

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# check_eq WHAT EXPECTED ACTUAL
check_eq() {
	[ "$2" = "$3" ] || fail "$1: expected '$2', got '$3'"
	echo "ok: $1 = $3"
}

# check_grep WHAT PATTERN FILE: FILE has a line matching the extended regex.
check_grep() {
	grep -Eq -- "$2" "$3" || fail "$1: no line matching '$2' in: $(cat "$3")"
	echo "ok: $1"
}

# fresh_dir PATH: an empty directory at PATH (tests rerun in the same build dir).
fresh_dir() {
	rm -rf "$1"
	mkdir -p "$1"
}

# run_ab EXPECTED_STATUS OUT ERR ARGS...: runs gittrace-ab ($AB) with
# stdout in OUT and stderr in ERR, and fails unless it exits EXPECTED_STATUS.
run_ab() {
	local want=$1 out=$2 err=$3 status=0
	shift 3
	"$AB" "$@" >"$out" 2>"$err" || status=$?
	[ "$status" = "$want" ] ||
		fail "gittrace-ab $*: exit status $status, expected $want; stderr: $(cat "$err")"
}
