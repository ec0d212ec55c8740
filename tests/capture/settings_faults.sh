# settings_faults.sh: a bad setting never harms the traced program. For each
# fault, known_calls (which forks, execs and uses threads) runs untraced and
# traced; stdout and exit status must be identical, and stderr must be the
# untraced stderr plus exactly one line starting with "gittrace:" (only the
# root process of a run warns, not each of its descendants).
#
# usage: bash settings_faults.sh PRELOAD KNOWN_CALLS WORKDIR
. "$(dirname "$0")/../lib.sh"

[ $# -eq 3 ] || fail "usage: settings_faults.sh PRELOAD KNOWN_CALLS WORKDIR"
preload=$1 prog=$2 work=$3
fresh_dir "$work"
as_nobody preload prog

# An output directory the traced program cannot write to.
unwritable=$work/readonly
unwritable_dir "$unwritable"

(cd "$work" && run_status "$work/plain" "${as_user[@]}" "$prog" "$work/plain")

# one_fault NAME VAR=VALUE...: runs known_calls traced with those settings.
one_fault() {
	local name=$1
	shift
	local out=$work/$name
	# LD_PRELOAD after setpriv: the traced run starts as the unprivileged user.
	(cd "$work" && run_status "$out" "${as_user[@]}" env "$@" LD_PRELOAD="$preload" "$prog" \
		"$out.dir")
	same_outcome "$name" "$work/plain" "$out" 1
}

one_fault missing-dir GITTRACE_OUTPUT="$work/no/such/dir/trace.zst"
one_fault unwritable-dir GITTRACE_OUTPUT="$unwritable/trace.zst"
one_fault output-is-under-a-file GITTRACE_OUTPUT=/etc/passwd/trace.zst
one_fault stack-depth-abc GITTRACE_STACK_DEPTH=abc GITTRACE_OUTPUT="$work/depth.zst"
one_fault buffer-size-zero GITTRACE_BUFFER_SIZE=0 GITTRACE_OUTPUT="$work/buffer.zst"
one_fault file-mode-999 GITTRACE_FILE_MODE=999 GITTRACE_OUTPUT="$work/mode.zst"
# The warning gives the range and the default in the base the setting is read in.
grep -q "^gittrace: invalid GITTRACE_FILE_MODE='999' (expected octal 0\.\.0777), using 0600" \
	"$work/file-mode-999.stderr" || fail "file-mode-999: $(grep gittrace: "$work/file-mode-999.stderr")"
# A FIFO nobody reads: opening it for writing would block the program for good.
mkfifo -m 666 "$work/fifo"
one_fault output-is-a-fifo GITTRACE_OUTPUT="$work/fifo"

# A stderr whose reader is gone: the warning must not kill the program with
# SIGPIPE. fd 4 is the write end of a pipe whose read end (fd 3) is closed.
mkfifo "$work/pipe"
exec 3<>"$work/pipe" 4>"$work/pipe" 3<&-
status() {
	(cd "$work" && "${as_user[@]}" env "$@" "$prog" "$work/pipe-$#.dir" >/dev/null 2>&4) || return $?
}
plain_status=0 traced_status=0
status || plain_status=$?
status GITTRACE_STACK_DEPTH=abc GITTRACE_OUTPUT="$work/pipe.zst" LD_PRELOAD="$preload" ||
	traced_status=$?
exec 4>&-
check_eq "stderr without a reader: exit status" "$plain_status" "$traced_status"

# An unusable output means no trace anywhere; an invalid setting means the
# default and a trace all the same.
[ ! -e "$unwritable/trace.zst" ] || fail "a trace appeared in the unwritable directory"
check_eq "no stray traces in the working directory" "" "$(cd "$work" && ls gittrace.* 2>/dev/null || true)"
[ -s "$work/depth.zst" ] || fail "GITTRACE_STACK_DEPTH=abc: no trace written with the default"
[ -s "$work/buffer.zst" ] || fail "GITTRACE_BUFFER_SIZE=0: no trace written with the default"
finish
