# huge_request.sh: a program whose requests for more memory than the
# machine has fail with ENOMEM (tests/progs/huge_request.c) runs traced as
# untraced, without a warning, and the trace holds the calls after them:
# tracing stopped at the first one, blaming a limit on address space.
# The tracer knows such a request only under the kernel's default
# overcommit heuristic (vm.overcommit_memory 0, preload/record.h); under
# another mode it stops and retries, as for a limit, and this test fails.
#
# usage: bash huge_request.sh PRELOAD REPORT HUGE_REQUEST WORKDIR
. "$(dirname "$0")/../lib.sh"

[ $# -eq 4 ] || fail "usage: huge_request.sh PRELOAD REPORT HUGE_REQUEST WORKDIR"
preload=$1 report=$2 prog=$3 work=$4
fresh_dir "$work"

plain_and_traced huge_request "$preload" "$prog"
check_eq "untraced exit status" 0 "$(cat "$work/plain.status")"
check_eq "untraced: the four huge requests fail with ENOMEM" 4 \
	"$(grep -c ': ENOMEM$' "$work/plain.stdout" || true)"
"$report" --dump "$work/trace.zst" >"$work/trace.dump"
check_eq "the blocks after the huge requests" 1000 \
	"$(grep -c " CALL fn=malloc .* size=4327 " "$work/trace.dump" || true)"
finish
