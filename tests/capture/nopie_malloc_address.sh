# nopie_malloc_address.sh: a program built without PIE that takes malloc's
# address is traced. There, malloc's address is the program's PLT entry in
# every module, libgittrace.so too, so the check that libgittrace's malloc
# comes first in the search order (interpose_linux.c, gt_hooks_in_front)
# took it for the program's own malloc: a warning, and no trace. Debian's
# python3 is such a program, and nothing it ran was traced either. With
# jemalloc before libgittrace.so, the program still runs untraced, warned.
# tests/progs/nopie_malloc_address.c is the subject.
#
# usage: bash nopie_malloc_address.sh PRELOAD REPORT PROGRAM WORKDIR
. "$(dirname "$0")/../lib.sh"

[ $# -eq 4 ] || fail "usage: nopie_malloc_address.sh PRELOAD REPORT PROGRAM WORKDIR"
preload=$1 report=$2 prog=$3 work=$4
fresh_dir "$work"

plain_and_traced "nopie" "$preload" "$prog"
"$report" --json "$work/trace.zst" >"$work/trace.json"
check_eq "trace complete" true "$(jq .trace.complete "$work/trace.json")"
"$report" --dump "$work/trace.zst" >"$work/trace.dump"
check_eq "every malloc, direct or through the address" 1001 \
	"$(grep -c " CALL fn=malloc .* size=5237 " "$work/trace.dump" || true)"

# Another allocator in front still is one: calloc, whose address the
# program did not take, tells (the warning, and no hang).
if has_library libjemalloc.so.2; then
	jemalloc=$(ldconfig -p | awk '$1 == "libjemalloc.so.2" { print $NF; exit }')
	GITTRACE_OUTPUT=$work/jemalloc.zst run_status "$work/jemalloc" \
		timeout -s KILL 60 env LD_PRELOAD="$jemalloc:$preload" "$prog"
	same_outcome "jemalloc first" "$work/plain" "$work/jemalloc" 1
	check_grep "jemalloc first: the warning says why" "another malloc comes before libgittrace" \
		"$work/jemalloc.stderr"
else
	echo "jemalloc not installed: its case left out (scripts/install-deps.sh installs it)"
fi
finish
