# huge_request.sh: a program whose requests for more memory than the
# machine has, and reservations of more address space than there is, fail
# with ENOMEM (tests/progs/huge_request.c) runs traced as untraced, without
# a warning, and the trace holds the calls after them: tracing stopped at
# the first one, blaming a limit on address space. Under strict accounting
# (vm.overcommit_memory 2), where the tracer's memory counts, the tracer
# stops and retries, as for a limit, and this test fails (preload/record.h).
#
# usage: bash huge_request.sh PRELOAD REPORT HUGE_REQUEST WORKDIR
. "$(dirname "$0")/../lib.sh"

[ $# -eq 4 ] || fail "usage: huge_request.sh PRELOAD REPORT HUGE_REQUEST WORKDIR"
preload=$1 report=$2 prog=$3 work=$4
fresh_dir "$work"

plain_and_traced huge_request "$preload" "$prog"
check_eq "untraced exit status" 0 "$(cat "$work/plain.status")"
check_eq "untraced: the six huge requests fail with ENOMEM" 6 \
	"$(grep -c ': ENOMEM$' "$work/plain.stdout" || true)"
"$report" --dump "$work/trace.zst" >"$work/trace.dump"
check_eq "the blocks after the huge requests" 1000 \
	"$(grep -c " CALL fn=malloc .* size=4327 " "$work/trace.dump" || true)"
finish
