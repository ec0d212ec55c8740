# json.sh AB WORK: --json has exactly the keys docs/ab.md documents, and its
# numbers agree with each other (medians, counts and per-round ratios
# recomputed here from the runs it lists).
. "$(dirname "$0")/lib.sh"
AB=$1
work=$2
fresh_dir "$work"

run_ab 0 "$work/r.json" "$work/err" --variant 'a=' --variant 'b=-c ab.name=b' \
	--variant 'c=-c ab.name=c' --rounds 5 --seed 11 --json -- sh -c 'echo to-dev-null'
j=$work/r.json
keys() { jq -r "$1 | keys_unsorted | join(\" \")" "$j"; }
check_eq "top-level keys" \
	"schema command template rounds min_rounds max_rounds precision max_seconds stopped warmups seed baseline failures exit_code variants runs" \
	"$(keys .)"
check_eq "without --precision, the rounds asked for" '[5,5,5,null,null,"rounds"]' \
	"$(jq -c '[.rounds, .min_rounds, .max_rounds, .precision, .max_seconds, .stopped]' "$j")"
check_eq "schema" "gittrace-ab/1" "$(jq -r .schema "$j")"
check_eq "command" '["sh","-c","echo to-dev-null"]' "$(jq -c .command "$j")"
check_eq "variant keys" \
	"name alloc preload settings runs_ok runs_failed metrics wall_ratio cpu_ratio conclusion" \
	"$(keys '.variants[1]')"
check_eq "metric keys" "wall_s user_s sys_s maxrss_kib minflt majflt" "$(keys '.variants[0].metrics')"
check_eq "metric summary keys" "n median mean stdev min max" "$(keys '.variants[0].metrics.wall_s')"
check_eq "ratio keys" "per_round n df t geomean ci_low ci_high half_width verdict" \
	"$(keys '.variants[1].wall_ratio')"
check_eq "verdict keys" "kind factor factor_low factor_high noise_pct text" \
	"$(keys '.variants[1].wall_ratio.verdict')"
check_eq "run keys" "round variant failed exit_status signal wall_s user_s sys_s maxrss_kib minflt majflt" \
	"$(keys '.runs[0]')"
check_eq "baseline has no ratio" "null null null" \
	"$(jq -r '.variants[0] | "\(.wall_ratio) \(.cpu_ratio) \(.conclusion)"' "$j")"
check_eq "df for 5 rounds" 4 "$(jq '.variants[1].wall_ratio.df' "$j")"
check_eq "conclusion is the wall verdict" true \
	"$(jq '.variants[1:] | all(.conclusion == .wall_ratio.verdict.text)' "$j")"

# Recompute from the runs: each variant's median wall time and run count,
# and the per-round ratios against the baseline.
check_eq "medians and counts agree with the runs" true "$(jq '
	. as $r | [range(0; .variants | length)] | all(. as $v |
		($r.variants[$v].name) as $name |
		[$r.runs[] | select(.round > 0 and .variant == $name) | .wall_s] | sort as $w |
		($w | length) == $r.variants[$v].runs_ok and
		$w[2] == $r.variants[$v].metrics.wall_s.median)' "$j")"
check_eq "per-round ratios agree with the runs" true "$(jq '
	. as $r | [range(1; .rounds + 1)] | all(. as $k |
		([$r.runs[] | select(.round == $k and .variant == "a") | .wall_s][0]) as $base |
		([$r.runs[] | select(.round == $k and .variant == "b") | .wall_s][0]) as $b |
		(($b / $base) - $r.variants[1].wall_ratio.per_round[$k - 1]) | fabs < 1e-6)' "$j")"
check_eq "interval brackets the geometric mean" true \
	"$(jq '.variants[1:] | all(.wall_ratio | .ci_low <= .geomean and .geomean <= .ci_high)' "$j")"

# --precision: rounds added one at a time after --rounds until every
# interval, wall and CPU, is that narrow. Which round stops it depends on
# the machine's noise, so the checks are on what cannot: a precision no
# interval meets (a millionth of a percent) runs to --max-rounds; one that
# any interval meets (100%: from half to twice its mean) for
# a command whose CPU time the clock sees stops at --rounds, or soon after
# where a round's CPU time read 0 (no ratio); --max-seconds, as short as
# can be, stops at --rounds.
spin='i=0; while [ $i -lt 20000 ]; do i=$((i + 1)); done'
run_ab 0 "$work/p.json" "$work/err" --variant 'a=' --variant 'b=-c ab.name=b' \
	--rounds 3 --precision 0.000001 --max-rounds 6 --seed 3 --json -- sh -c "$spin"
check_eq "an unmet precision: --max-rounds" '[6,3,6,1e-08,"max_rounds"]' \
	"$(jq -c '[.rounds, .min_rounds, .max_rounds, .precision, .stopped]' "$work/p.json")"
check_eq "every round ran, each variant once" "6 6 12" \
	"$(jq -r '[.runs[] | select(.round > 0)] | "\(map(.round) | max) \(map(.round) | unique | length) \(length)"' "$work/p.json")"
check_eq "the ratios cover every round run" "6 6" \
	"$(jq -r '.variants[1] | "\(.wall_ratio.per_round | length) \(.cpu_ratio.per_round | length)"' "$work/p.json")"
run_ab 0 "$work/q.json" "$work/err" --variant 'a=' --variant 'b=-c ab.name=b' \
	--rounds 3 --precision 100 --max-rounds 40 --json -- sh -c "$spin"
check_eq "a precision any interval meets: stops early" true \
	"$(jq '.stopped == "precise" and .rounds >= 3 and .rounds < 40' "$work/q.json")"
run_ab 0 "$work/s.json" "$work/err" --variant 'a=' --variant 'b=-c ab.name=b' \
	--rounds 2 --precision 0.000001 --max-rounds 50 --max-seconds 0.000001 --json -- true
check_eq "--max-seconds passed: no round after --rounds" '[2,"max_seconds"]' \
	"$(jq -c '[.rounds, .stopped]' "$work/s.json")"
finish
