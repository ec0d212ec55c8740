# order.sh AB WORK: warm-ups come first, every round runs each variant
# exactly once, the order inside rounds is shuffled, the seed reproduces it,
# and the JSON lists the runs in the order they really ran. The fake
# command appends its variant's name, read the way git reads a setting.
. "$(dirname "$0")/lib.sh"
AB=$1
work=$2
fresh_dir "$work"

variants=(--variant 'a=-c ab.name=a' --variant 'b=-c ab.name=b' --variant 'c=-c ab.name=c')
# shellcheck disable=SC2016 # $0 is the log, expanded by the fake command's shell
fake=(sh -c 'git config --get ab.name >>"$0"')

run_ab 0 "$work/1.json" "$work/1.err" "${variants[@]}" --rounds 6 --seed 1 --json -- \
	"${fake[@]}" "$work/1.log"
check_eq "runs logged" 21 "$(wc -l <"$work/1.log")"
check_eq "warm-ups first, in the given order" "a b c" "$(head -3 "$work/1.log" | xargs)"

orders=""
for r in 1 2 3 4 5 6; do
	round=$(sed -n "$((3 * r + 1)),$((3 * r + 3))p" "$work/1.log" | xargs)
	check_eq "round $r runs each variant once" "a b c" "$(echo "$round" | tr ' ' '\n' | sort | xargs)"
	orders="$orders$round
"
done
distinct=$(printf '%s' "$orders" | sort -u | wc -l)
[ "$distinct" -ge 2 ] || fail "the order never changed across 6 rounds: $orders"
echo "ok: $distinct different orders in 6 rounds"

# The JSON's runs are the log, in the same order, with the right rounds.
check_eq "JSON runs in execution order" "$(xargs <"$work/1.log")" \
	"$(jq -r '.runs[].variant' "$work/1.json" | xargs)"
check_eq "JSON rounds" "0 0 0 1 1 1 2 2 2 3 3 3 4 4 4 5 5 5 6 6 6" \
	"$(jq -r '.runs[].round' "$work/1.json" | xargs)"
check_eq "JSON seed" 1 "$(jq -r .seed "$work/1.json")"

# The same seed gives the same order; the text output prints the seed.
run_ab 0 "$work/2.txt" "$work/2.err" "${variants[@]}" --rounds 6 --seed 1 -- \
	"${fake[@]}" "$work/2.log"
cmp -s "$work/1.log" "$work/2.log" || fail "seed 1 gave another order: $(xargs <"$work/2.log")"
echo "ok: seed 1 repeats its order"
check_grep "text shows the seed" 'seed 1\)' "$work/2.txt"

# Without --seed a seed is chosen and printed; giving it back repeats the run.
run_ab 0 "$work/3.txt" "$work/3.err" "${variants[@]}" --rounds 6 -- "${fake[@]}" "$work/3.log"
seed=$(sed -n 's/.*(seed \([0-9]*\)).*/\1/p' "$work/3.txt")
[ -n "$seed" ] || fail "no seed in: $(cat "$work/3.txt")"
run_ab 0 "$work/4.txt" "$work/4.err" "${variants[@]}" --rounds 6 --seed "$seed" -- \
	"${fake[@]}" "$work/4.log"
cmp -s "$work/3.log" "$work/4.log" || fail "the printed seed $seed did not repeat the order"
echo "ok: the printed seed $seed repeats its order"

# More warm-ups: all of them before round 1.
run_ab 0 "$work/5.json" "$work/5.err" "${variants[@]}" --rounds 2 --warmups 2 --seed 3 --json -- \
	"${fake[@]}" "$work/5.log"
check_eq "two warm-ups each, first" "a b c a b c" "$(head -6 "$work/5.log" | xargs)"
check_eq "runs with two warm-ups" 12 "$(wc -l <"$work/5.log")"
finish
