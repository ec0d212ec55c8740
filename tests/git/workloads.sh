# workloads.sh: runs each examples/workloads/*.sh under the preload and checks
# the report against the expect-* lines in the workload's header, only what
# does not depend on how fast this machine is: the remedy the trace points
# at (expect-remedy: default-windows, allocator or none: whether the
# verdict predicts for it, and names the window settings); for window
# workloads the evictions, the inferred window size, exactly (git rounds
# core.packedGitWindowSize down to a multiple of two pages), and that the
# core.packedGitLimit bounds contain the configured limit. Which class the
# predicted savings make, and how large they are, is timing: bench/verdict.sh.
#
# usage: bash workloads.sh PRELOAD REPORT MAKE_DEMO WORKLOADS_DIR ALLOC_CHURN WORKDIR
. "$(dirname "$0")/../lib.sh"
use_git

[ $# -eq 6 ] || fail "usage: workloads.sh PRELOAD REPORT MAKE_DEMO WORKLOADS_DIR ALLOC_CHURN WORKDIR"
preload=$1 report=$2 make_demo=$3 workloads=$4 alloc_churn=$5 work=$6
fresh_dir "$work"
# The default scale: window effects need a pack of several MB.
demo_repo "$make_demo" "$work/demo" 100
page=$(getconf PAGESIZE)

# expect FILE KEY: the value of "# expect-KEY: value" in FILE, or nothing.
expect() {
	sed -n "s/^# expect-$2: *//p" "$1"
}

# bytes SIZE: git's k/m/g suffixes, as bytes.
bytes() {
	case $1 in
	*k) echo $((${1%k} * 1024)) ;;
	*m) echo $((${1%m} * 1024 * 1024)) ;;
	*g) echo $((${1%g} * 1024 * 1024 * 1024)) ;;
	*) echo "$1" ;;
	esac
}

for script in "$workloads"/*.sh; do
	name=$(basename "$script" .sh)
	case $name in
	alloc-churn) arg=$alloc_churn ;;
	*)
		rm -rf "$work/$name.repo"
		cp -a "$work/demo" "$work/$name.repo"
		arg=$work/$name.repo
		;;
	esac
	GITTRACE_OUTPUT=$work/$name.zst run_traced "$preload" sh "$script" "$arg" >/dev/null ||
		fail "$name: the workload failed"
	"$report" --json --top 3 "$work/$name.zst" >"$work/$name.json" ||
		fail "$name: gittrace-report failed"
	remedy=$(expect "$script" remedy)
	applies='[.verdict.predictions[] | select(.applies) | .remedy]'
	names_limit='[.verdict.suggestions[] | select(contains("--unset core.packedGitLimit"))] | length > 0'
	case $remedy in
	default-windows)
		check_eq "$name: the window remedy is predicted" true \
			"$(jq "$applies | index(\"default-windows\") != null" "$work/$name.json")"
		check_eq "$name: the suggestions name core.packedGitLimit" true \
			"$(jq "$names_limit" "$work/$name.json")"
		;;
	allocator | none)
		check_eq "$name: no window remedy" false \
			"$(jq "$applies | index(\"default-windows\") != null" "$work/$name.json")"
		check_eq "$name: no window suggestion" false "$(jq "$names_limit" "$work/$name.json")"
		;;
	*) fail "$name: expect-remedy '$remedy' unknown" ;;
	esac
	if [ "$remedy" = allocator ]; then
		check_eq "$name: the allocator remedy is predicted" true \
			"$(jq "$applies | index(\"allocator\") != null" "$work/$name.json")"
	fi

	window=$(expect "$script" window)
	[ -n "$window" ] || continue
	# The process with the most pack maps is the one the window facts are about.
	top='(.processes | max_by(.maps.by_kind.pack.mmaps) | .maps)'
	step=$((2 * page))
	check_eq "$name: evictions seen" true "$(jq "$top.packed_git_limit.evictions > 0" \
		"$work/$name.json")"
	check_eq "$name: inferred window" $(($(bytes "$window") / step * step)) \
		"$(jq "$top.inferred_window_bytes" "$work/$name.json")"
	limit=$(bytes "$(expect "$script" limit)")
	check_eq "$name: limit bounds contain $limit" true \
		"$(jq --argjson l "$limit" "$top.packed_git_limit | .at_least <= \$l and
			(.below == null or \$l < .below)" "$work/$name.json")"
	echo "ok: $name: $(jq -c "$top | {pack: .by_kind.pack.mmaps, thrash_ratio, packed_git_limit}" \
		"$work/$name.json")"
done
finish
