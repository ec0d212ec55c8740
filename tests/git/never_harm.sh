# never_harm.sh: with GITTRACE_OUTPUT in an unwritable directory, git does the
# same work with the same output and exit status, plus exactly one warning
# line (from the first process; git repack's pack-objects child stays
# quiet). Also for a failing git command, whose status must pass through.
#
# usage: bash never_harm.sh PRELOAD MAKE_DEMO WORKDIR
. "$(dirname "$0")/lib.sh"

[ $# -eq 3 ] || fail "usage: never_harm.sh PRELOAD MAKE_DEMO WORKDIR"
preload=$1 make_demo=$2 work=$3
fresh_dir "$work"
demo_repo "$make_demo" "$work/demo" 3

# An unwritable output directory. Root may write anywhere, so as root the
# traced git runs as nobody (on copies nobody owns).
mkdir "$work/readonly"
chmod 0555 "$work/readonly"
as_user=()
if [ "$(id -u)" -eq 0 ]; then
	as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
	chmod 0755 "$work/readonly"
	chmod 0777 "$work"
fi

# both NAME GIT-ARGS...: runs git untraced on copy a and traced on copy b,
# both as the same user.
both() {
	local name=$1 sa sb
	shift
	cp -a "$work/demo" "$work/$name.a"
	cp -a "$work/demo" "$work/$name.b"
	[ ${#as_user[@]} -eq 0 ] || chown -R 65534:65534 "$work/$name.a" "$work/$name.b"
	set +e
	(cd "$work/$name.a" && "${as_user[@]}" "$GIT" "$@" >"$work/$name.a.stdout" \
		2>"$work/$name.a.stderr")
	sa=$?
	# LD_PRELOAD after setpriv: the traced run starts as the unprivileged user.
	(cd "$work/$name.b" && "${as_user[@]}" env GITTRACE_OUTPUT="$work/readonly/trace.zst" \
		LD_PRELOAD="$preload" "$GIT" "$@" >"$work/$name.b.stdout" 2>"$work/$name.b.stderr")
	sb=$?
	set -e
	check_eq "$name: exit status" "$sa" "$sb"
	same_files "$name: stdout" "$work/$name.a.stdout" "$work/$name.b.stdout"
	check_eq "$name: warning lines" 1 "$(grep -c '^gittrace:' "$work/$name.b.stderr" || true)"
	grep -v '^gittrace:' "$work/$name.b.stderr" >"$work/$name.b.rest" || true
	same_files "$name: stderr besides the warning" "$work/$name.a.stderr" "$work/$name.b.rest"
}

both log log --raw
both repack -c pack.threads=1 repack -adf
check_eq "repack: same packs" "$(ls "$work/repack.a/objects/pack")" \
	"$(ls "$work/repack.b/objects/pack")"
both failing cat-file -p 0000000000000000000000000000000000000001
check_eq "failing: git's own status" 128 "$(
	cd "$work/demo" && "$GIT" cat-file -p 0000000000000000000000000000000000000001 \
		>/dev/null 2>&1
	echo $?
)"
[ ! -e "$work/readonly/trace.zst" ] || fail "a trace appeared in the unwritable directory"
finish
