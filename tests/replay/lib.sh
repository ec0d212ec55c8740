# lib.sh: what only the replay tests need (sourced, not run), on top of
# tests/lib.sh. The caller sets work, report, replay and preload.
# shellcheck shell=bash disable=SC2154 # work, report, replay, preload: the caller's
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
unset LD_PRELOAD GITTRACE_PRELOAD 2>/dev/null || true

# record TRACE CMD...: runs CMD under the preload, writing TRACE.
record() {
	local trace=$1
	shift
	rm -f "$trace"
	GITTRACE_OUTPUT=$trace GITTRACE_STACK_DEPTH=0 run_traced "$preload" "$@" >/dev/null
}

# check_counts NAME TRACE REPLAY_TEXT: for every image the replay lists,
# the calls it replayed per function equal the report's counts of the same
# trace (counted).
check_counts() {
	local name=$1 trace=$2 text=$3 pid line fn want got
	"$report" --json "$trace" 2>/dev/null >"$work/$name.report.json"
	local images=0
	while read -r pid; do
		images=$((images + 1))
		line=$(sed -n "/^pid $pid:/,/replayed calls:/p" "$text" | grep 'replayed calls:')
		for fn in malloc calloc realloc reallocarray free posix_memalign aligned_alloc \
			memalign valloc pvalloc; do
			want=$(jq --argjson pid "$pid" \
				"[.processes[] | select(.pid == \$pid) | .calls.$fn] | add" \
				"$work/$name.report.json")
			got=$(printf '%s\n' "$line" | grep -o " $fn=[0-9]*" | cut -d= -f2)
			check_eq "$name: pid $pid $fn calls replayed" "$want" "$got"
		done
	done < <(sed -n 's/^pid \([0-9]*\):.*/\1/p' "$text")
	[ "$images" -gt 0 ] || check_failed "$name: the replay lists no image: $(cat "$text")"
}

# allocators: the --alloc options of a test: mimalloc and jemalloc where
# installed, and always the forwarding preload given as a path, so that no
# test skips for a missing package.
allocators() {
	local name
	for name in mimalloc jemalloc; do
		if has_library "lib$name.so.2"; then
			printf '%s\n' --alloc "$name"
		fi
	done
	printf '%s\n' --alloc "$alloc"
}
