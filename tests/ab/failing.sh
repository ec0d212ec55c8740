# failing.sh AB WORK: a failing command's exit status is passed through and
# reported with its variant and run and the end of its stderr; a command
# killed by a signal gives 128+N; --keep-going leaves the failed run out of
# the statistics but still exits non-zero; a command that cannot be
# started is bad input (exit 1).
. "$(dirname "$0")/lib.sh"
AB=$1
work=$2
fresh_dir "$work"
two=(--variant 'a=-c ab.name=a' --variant 'b=-c ab.name=b')

run_ab 3 "$work/exit3.out" "$work/exit3.err" "${two[@]}" -- sh -c 'exit 3'
check_grep "exit 3 reported" "^gittrace-ab: 'sh' failed with exit status 3 \(variant a, warm-up\)$" \
	"$work/exit3.err"
check_eq "no result after a failure" "" "$(cat "$work/exit3.out")"

# b breaks on its third run (its round 2), saying why on stderr.
# shellcheck disable=SC2016 # expanded by the fake command's shell
flaky=(sh -c '
	name=$(git config --get ab.name)
	n=$(cat "$0.$name" 2>/dev/null || echo 0)
	echo $((n + 1)) >"$0.$name"
	if [ "$name" = b ] && [ "$n" = 2 ]; then echo "b broke here" >&2; exit 5; fi' "$work/count")

run_ab 5 "$work/flaky.out" "$work/flaky.err" "${two[@]}" --rounds 4 --seed 9 -- "${flaky[@]}"
check_grep "failure names variant and round" \
	"^gittrace-ab: 'sh' failed with exit status 5 \(variant b, round 2/4\)$" "$work/flaky.err"
check_grep "the command's stderr is shown" "^  b broke here$" "$work/flaky.err"
check_eq "it stopped at the failure" 3 "$(cat "$work/count.b")"

rm -f "$work"/count.*
run_ab 5 "$work/keep.json" "$work/keep.err" "${two[@]}" --rounds 4 --seed 9 --keep-going --json \
	-- "${flaky[@]}"
check_grep "keep-going warns" \
	"^gittrace-ab: warning: 'sh' failed with exit status 5 \(variant b, round 2/4\); going on$" \
	"$work/keep.err"
check_eq "all runs made" 5 "$(cat "$work/count.b")"
check_eq "failures in JSON" 1 "$(jq .failures "$work/keep.json")"
check_eq "exit_code in JSON" 5 "$(jq .exit_code "$work/keep.json")"
check_eq "b's measured runs" "3 1" "$(jq -r '.variants[1] | "\(.runs_ok) \(.runs_failed)"' "$work/keep.json")"
check_eq "the failed run" '2 b 5' \
	"$(jq -r '.runs[] | select(.failed) | "\(.round) \(.variant) \(.exit_status)"' "$work/keep.json")"
check_eq "round 2 has no ratio" "null" "$(jq -c '.variants[1].wall_ratio.per_round[1]' "$work/keep.json")"
check_eq "ratios over the other rounds" 3 "$(jq '.variants[1].wall_ratio.n' "$work/keep.json")"

# shellcheck disable=SC2016
run_ab 137 "$work/kill.out" "$work/kill.err" "${two[@]}" -- sh -c 'kill -9 $$'
check_grep "signal reported" "^gittrace-ab: 'sh' was killed by signal 9 \(Killed\) \(variant a, warm-up\)$" \
	"$work/kill.err"

run_ab 1 "$work/nocmd.out" "$work/nocmd.err" "${two[@]}" -- "$work/no-such-command"
check_eq "cannot start" "gittrace-ab: cannot run '$work/no-such-command': No such file or directory" \
	"$(cat "$work/nocmd.err")"
finish
