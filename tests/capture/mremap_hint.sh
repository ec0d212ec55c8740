# mremap_hint.sh: mremap's new_address reaches the kernel with
# MREMAP_DONTUNMAP too, where it is a hint the kernel checks, and the trace
# records it. The mremap hook read it with MREMAP_FIXED only, so the
# traced program's mapping went elsewhere, an unaligned hint did not fail,
# and the trace said new_addr=0x0. tests/progs/mremap_hint.c is the subject.
#
# usage: bash mremap_hint.sh PRELOAD REPORT PROGRAM WORKDIR
. "$(dirname "$0")/../lib.sh"

[ $# -eq 4 ] || fail "usage: mremap_hint.sh PRELOAD REPORT PROGRAM WORKDIR"
preload=$1 report=$2 prog=$3 work=$4
fresh_dir "$work"

run_status "$work/plain" "$prog" "$work/plain.hint"
GITTRACE_OUTPUT=$work/trace.zst run_status "$work/traced" run_traced "$preload" "$prog" "$work/traced.hint"
same_outcome "mremap" "$work/plain" "$work/traced" 0
if grep -q "^no MREMAP_DONTUNMAP here$" "$work/plain.stdout"; then
	echo "ok: this kernel has no MREMAP_DONTUNMAP: the rest is moot"
	finish
fi
check_grep "the untraced mapping went to the hint" "^aligned hint: the mapping went there$" \
	"$work/plain.stdout"
"$report" --dump "$work/trace.zst" >"$work/trace.dump"
hint=$(cat "$work/traced.hint")
unaligned=$(printf '0x%x' $((hint + 1)))
for addr in "$hint" "$unaligned"; do
	check_eq "the mremap with the hint $addr in the trace" 1 \
		"$(grep -c " CALL fn=mremap .* new_addr=$addr " "$work/trace.dump" || true)"
done
finish
