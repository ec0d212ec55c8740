# smoke.sh AB CHURN WORK: the allocator-heavy toy under system, mimalloc and
# jemalloc runs to the end with a conclusion for each; only that it runs,
# never how fast (timings are not a test). Skipped (77) without mimalloc.
. "$(dirname "$0")/lib.sh"
AB=$1
churn=$2
work=$3
fresh_dir "$work"
allocs=(--alloc system)
for a in mimalloc jemalloc; do
	if "$AB" --alloc "$a" --rounds 2 --warmups 0 -- true >/dev/null 2>&1; then
		allocs+=(--alloc "$a")
	fi
done
if [ ${#allocs[@]} -lt 4 ]; then
	echo "skip: neither mimalloc nor jemalloc is installed"
	exit 77
fi
run_ab 0 "$work/r.txt" "$work/err" "${allocs[@]}" --rounds 3 -- "$churn" 20
check_grep "a conclusion per variant" "^  (mimalloc|jemalloc): (no difference|[0-9.]+x (faster|slower))" \
	"$work/r.txt"
echo "--- the report, for the log:"
cat "$work/r.txt"
finish
