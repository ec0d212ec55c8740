# setuid.sh: a setuid or setgid program ignores every GITTRACE_* setting
# (the preload reads them with secure_getenv): otherwise any user could
# make a privileged program write, with its privileges, to a file the user
# names (GITTRACE_OUTPUT) or append to one (GITTRACE_SESSION).
#
# The setup needs root: a copy of git that is setuid (or setgid) to nobody,
# run as a third user (uid 12345). The dynamic loader, in secure mode,
# preloads only a library named without a slash, found in a system
# directory, with the setuid bit itself: so the test installs a copy of the
# preload under a unique name next to libc for its duration. Skipped (exit
# 77) when not root or when the file system ignores setuid bits.
#
# usage: bash setuid.sh PRELOAD REPORT WORKDIR
. "$(dirname "$0")/../lib.sh"
use_git

[ $# -eq 3 ] || fail "usage: setuid.sh PRELOAD REPORT WORKDIR"
preload=$1 report=$2 work=$3
fresh_dir "$work"
if [ "$(id -u)" -ne 0 ]; then
	echo "skip: needs root to make setuid programs and install into a system directory"
	exit 77
fi
user=(setpriv --reuid=12345 --regid=12345 --clear-groups)
reachable_by "${user[@]}" --
if findmnt -n -o OPTIONS -T "$work" | tr , '\n' | grep -qx nosuid; then
	echo "skip: $work is on a nosuid file system"
	exit 77
fi

libdir=$(dirname "$(readlink -f "$(ldd "$GIT" | awk '/libc\.so/ { print $3 }')")")
lib=libgittrace-setuid-test-$$.so
install -m 4755 "$preload" "$libdir/$lib"
trap 'rm -f "$libdir/$lib"' EXIT
chmod 0755 "$work"

for kind in setuid setgid; do
	dir=$work/$kind
	mkdir -m 0777 "$dir" "$dir/cwd"
	if [ $kind = setuid ]; then
		install -o 65534 -g 65534 -m 4755 "$GIT" "$dir/victim"
	else
		install -o 0 -g 65534 -m 2755 "$GIT" "$dir/victim"
	fi
	# Files the settings name, which the victim could write to.
	echo "the session of another run" >"$dir/session.zst"
	chmod 0666 "$dir/session.zst"
	cp "$dir/session.zst" "$dir/session.orig"

	(cd "$dir/cwd" && run_status "$dir/plain" "${user[@]}" "$dir/victim" version)
	mkdir -m 0777 "$dir/tmp"
	touch "$dir/before"
	(cd "$dir/cwd" && run_status "$dir/traced" "${user[@]}" env LD_PRELOAD="$lib" \
		GITTRACE_OUTPUT="$dir/named.zst" GITTRACE_SESSION="$dir/session.zst" \
		GITTRACE_STACK_DEPTH=0 GITTRACE_FILE_MODE=0666 TMPDIR="$dir/tmp" "$dir/victim" version)
	same_outcome "$kind" "$dir/plain" "$dir/traced" 0

	[ ! -e "$dir/named.zst" ] || fail "$kind: GITTRACE_OUTPUT was obeyed"
	same_files "$kind: the file GITTRACE_SESSION names" "$dir/session.orig" "$dir/session.zst"
	# The library did load and trace, with the defaults: a new file in /tmp
	# (TMPDIR, the user's, ignored too), mode 0600, stacks of the default depth.
	check_eq "$kind: nothing in the current directory or TMPDIR" "" "$(find "$dir/cwd" "$dir/tmp" -mindepth 1)"
	trace=$(find /tmp -maxdepth 1 -name 'gittrace.victim.*.zst' -newer "$dir/before")
	[ -n "$trace" ] || fail "$kind: no default trace: the preload did not load (the test is void)"
	[ "$(wc -l <<<"$trace")" -eq 1 ] || fail "$kind: more than one new trace in /tmp: $trace"
	mv "$trace" "$dir/"
	trace=$dir/$(basename "$trace")
	check_eq "$kind: mode (GITTRACE_FILE_MODE ignored)" 600 "$(stat -c %a "$trace")"
	depth=$("$report" --dump "$trace" | sed -n 's/.* IMAGE .*stack_depth=\([0-9]*\).*/\1/p')
	[ "$depth" -gt 0 ] || fail "$kind: GITTRACE_STACK_DEPTH=0 was obeyed"
	echo "ok: $kind: settings ignored (stack depth $depth, trace $(basename "$trace"))"
done
finish
