# lib.sh: helpers shared by the capture test scripts (sourced, not run).
# Every check prints what it expected and what it got.

set -euo pipefail
export LC_ALL=C

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# check_eq WHAT EXPECTED ACTUAL: a check that does not stop the test, so
# one run shows every mismatch; finish reports them.
failures=0
check_eq() {
	if [ "$2" = "$3" ]; then
		echo "ok: $1 = $3"
	else
		echo "FAIL: $1: expected '$2', got '$3'" >&2
		failures=$((failures + 1))
	fi
}

# finish: the test's verdict, after all checks.
finish() {
	[ "$failures" -eq 0 ] || fail "$failures check(s) failed"
	echo "PASS"
}

# fresh_dir PATH: an empty directory at PATH (tests rerun in the same build dir).
fresh_dir() {
	rm -rf "$1"
	mkdir -p "$1"
}

# run_traced PRELOAD CMD...: runs CMD with PRELOAD appended to LD_PRELOAD.
run_traced() {
	local preload=$1
	shift
	LD_PRELOAD="${LD_PRELOAD:+$LD_PRELOAD:}$preload" "$@"
}

# complete_prefix FILE: prints the length of the longest prefix of FILE made
# of whole blocks (skippable header frame + zstd frame), read from the
# block headers as include/gittrace/format.h lays them out: an 8-byte
# skippable prefix (magic, size), then the header, whose frame_size is the
# u32 LE at offset 24 of the header content.
complete_prefix() {
	local file=$1 size off=0 hsize fsize
	size=$(stat -c %s "$file")
	while [ $((off + 8)) -le "$size" ]; do
		hsize=$(od -An -tu4 -j $((off + 4)) -N4 "$file" | tr -d ' ')
		[ $((off + 8 + hsize)) -le "$size" ] || break
		fsize=$(od -An -tu4 -j $((off + 8 + 24)) -N4 "$file" | tr -d ' ')
		[ $((off + 8 + hsize + fsize)) -le "$size" ] || break
		off=$((off + 8 + hsize + fsize))
	done
	echo "$off"
}
