# fd_collision.sh: the tracer and the libraries it loads hold no descriptor
# where the program may put its own (libunwind 1.6's memory-check pipe took
# fds 3 and 4 and closed the program's files there).
#   - fd_collision (tests/progs) passes its own checks traced as untraced,
#     with the same output: the same descriptors between 3 and 699 (none of
#     ours), its files on fds 3 and 4 untouched after libunwind had to
#     check memory;
#   - a shell that does `exec 3>&2 4>&2` and then defines functions (dash
#     allocates, some frames are guessed) can still write to fd 3, 50 runs
#     out of 50.
#
# usage: bash fd_collision.sh PRELOAD FD_COLLISION WORKDIR
. "$(dirname "$0")/../lib.sh"

[ $# -eq 3 ] || fail "usage: fd_collision.sh PRELOAD FD_COLLISION WORKDIR"
preload=$1 prog=$2 work=$3
fresh_dir "$work"
mkdir "$work/plain" "$work/traced"

set +e
"$prog" "$work/plain" >"$work/plain.out" 2>&1
plain=$?
GITTRACE_OUTPUT="$work/trace.zst" run_traced "$preload" "$prog" "$work/traced" \
	>"$work/traced.out" 2>&1
traced=$?
set -e
cat "$work/traced.out"
check_eq "untraced exit status" 0 "$plain"
check_eq "traced exit status" 0 "$traced"
check_eq "traced output is the untraced output" "$(cat "$work/plain.out")" \
	"$(cat "$work/traced.out")"

cat >"$work/fd.sh" <<'SH'
exec 3>&2 4>&2
i=0; while [ $i -lt 300 ]; do i=$((i+1)); x=$(printf "%03i" $i); eval "f$i() { echo $i; }"; done
echo "fd 3 still ours" >&3
SH
ours=0
for _ in $(seq 50); do
	out=$(GITTRACE_OUTPUT="$work/" run_traced "$preload" sh "$work/fd.sh" 2>&1 || true)
	[ "$out" = "fd 3 still ours" ] && ours=$((ours + 1))
done
check_eq "runs of fd.sh that kept fd 3" 50 "$ours"
finish
