# never_harm.sh: with GITTRACE_OUTPUT in an unwritable directory, git does the
# same work with the same output and exit status, plus exactly one warning
# line (from the first process; git repack's pack-objects child stays
# quiet). Also for a failing git command, whose status must pass through.
#
# usage: bash never_harm.sh PRELOAD MAKE_DEMO WORKDIR
. "$(dirname "$0")/../lib.sh"
use_git

[ $# -eq 3 ] || fail "usage: never_harm.sh PRELOAD MAKE_DEMO WORKDIR"
preload=$1 make_demo=$2 work=$3
fresh_dir "$work"
as_nobody preload
demo_repo "$make_demo" "$work/demo" 3

# An unwritable output directory. Root may write anywhere, so as root the
# traced git runs as nobody (on copies nobody owns).
unwritable_dir "$work/readonly"

# both NAME GIT-ARGS...: runs git untraced on copy a and traced on copy b,
# both as the same user.
both() {
	local name=$1
	shift
	cp -a "$work/demo" "$work/$name.a"
	cp -a "$work/demo" "$work/$name.b"
	[ ${#as_user[@]} -eq 0 ] || chown -R 65534:65534 "$work/$name.a" "$work/$name.b"
	(cd "$work/$name.a" && run_status "$work/$name.a" "${as_user[@]}" "$GIT" "$@")
	# LD_PRELOAD after setpriv: the traced run starts as the unprivileged user.
	(cd "$work/$name.b" && run_status "$work/$name.b" "${as_user[@]}" \
		env GITTRACE_OUTPUT="$work/readonly/trace.zst" LD_PRELOAD="$preload" "$GIT" "$@")
	same_outcome "$name" "$work/$name.a" "$work/$name.b" 1
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
