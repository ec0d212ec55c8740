# settings_faults.sh: a bad setting never harms the traced program. For each
# fault, known_calls (which forks, execs and uses threads) runs untraced and
# traced; stdout and exit status must be identical, and stderr must be the
# untraced stderr plus exactly one line starting with "gittrace:" (only the
# root process of a run warns, not each of its descendants).
#
# usage: bash settings_faults.sh PRELOAD KNOWN_CALLS WORKDIR
. "$(dirname "$0")/lib.sh"

[ $# -eq 3 ] || fail "usage: settings_faults.sh PRELOAD KNOWN_CALLS WORKDIR"
preload=$1 prog=$2 work=$3
fresh_dir "$work"


# An output directory the traced program cannot write to. As root every
# directory is writable, so root runs the traced program as nobody, in a
# directory nobody can read and execute but not write.
unwritable=$work/readonly
mkdir -p "$unwritable"
chmod 0555 "$unwritable"
as_user=()
if [ "$(id -u)" -eq 0 ]; then
	as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
	chmod 0777 "$work" # nobody writes the program's own files here
	chmod 0755 "$unwritable"
fi

set +e
(cd "$work" && "${as_user[@]}" "$prog" "$work/plain" >"$work/plain.stdout" 2>"$work/plain.stderr")
plain_status=$?
set -e

# one_fault NAME VAR=VALUE...: runs known_calls traced with those settings.
one_fault() {
	local name=$1 status
	shift
	local out=$work/$name
	set +e
	# LD_PRELOAD after setpriv: the traced run starts as the unprivileged user.
	(cd "$work" && "${as_user[@]}" env "$@" LD_PRELOAD="$preload" "$prog" "$out.dir" \
		>"$out.stdout" 2>"$out.stderr")
	status=$?
	set -e
	check_eq "$name: exit status" "$plain_status" "$status"
	cmp -s "$work/plain.stdout" "$out.stdout" || fail "$name: stdout differs from the untraced run"
	echo "ok: $name: same stdout"
	# The warning lines, and the rest of stderr, which must equal the untraced stderr.
	check_eq "$name: warning lines" 1 "$(grep -c '^gittrace:' "$out.stderr" || true)"
	grep -v '^gittrace:' "$out.stderr" >"$out.rest" || true
	cmp -s "$work/plain.stderr" "$out.rest" || fail "$name: stderr differs beyond the warning"
	echo "ok: $name: warning: $(grep '^gittrace:' "$out.stderr")"
}

one_fault missing-dir GITTRACE_OUTPUT="$work/no/such/dir/trace.zst"
one_fault unwritable-dir GITTRACE_OUTPUT="$unwritable/trace.zst"
one_fault output-is-under-a-file GITTRACE_OUTPUT=/etc/passwd/trace.zst
one_fault stack-depth-abc GITTRACE_STACK_DEPTH=abc GITTRACE_OUTPUT="$work/depth.zst"
one_fault buffer-size-zero GITTRACE_BUFFER_SIZE=0 GITTRACE_OUTPUT="$work/buffer.zst"

# An unusable output means no trace anywhere; an invalid setting means the
# default and a trace all the same.
[ ! -e "$unwritable/trace.zst" ] || fail "a trace appeared in the unwritable directory"
check_eq "no stray traces in the working directory" "" "$(cd "$work" && ls gittrace.* 2>/dev/null || true)"
[ -s "$work/depth.zst" ] || fail "GITTRACE_STACK_DEPTH=abc: no trace written with the default"
[ -s "$work/buffer.zst" ] || fail "GITTRACE_BUFFER_SIZE=0: no trace written with the default"
finish
