# test_confirm_rules.sh: the class `gittrace --confirm` draws from measured
# effects (confirm.jq), on recorded measurements, so that no outcome
# depends on this machine's speed: a remedy is confirmed only with an
# interval all below the command as given and a saving of at least the
# report's class_min; "neither" only when every interval rules out a saving
# of class_min; "unclear" otherwise.
#
# usage: bash test_confirm_rules.sh CONFIRM_JQ
. "$(dirname "$0")/../tests/lib.sh"

[ $# -eq 1 ] || fail "usage: test_confirm_rules.sh CONFIRM_JQ"
confirm_jq=$1
command -v jq >/dev/null || fail "jq is missing"

# The report's side: what the trace predicted.
report='{"verdict": {"class": "window-bound", "class_min": 0.1, "predictions": [
	{"remedy": "default-windows", "applies": true, "gain": 0.12, "low": 0.05, "high": 0.3},
	{"remedy": "allocator", "applies": true, "gain": 0.04, "low": 0.02, "high": 0.1}]}}'

# class NAME EXPECTED VARIANT:RATIO:CI_LOW:CI_HIGH...: the class confirm.jq
# gives for gittrace-ab's measurements of these variants against "as-given".
class() {
	local name=$1 expected=$2 variants=() v
	shift 2
	for v; do
		IFS=: read -r n r lo hi <<<"$v"
		variants+=("{\"name\": \"$n\", \"wall_ratio\": {\"geomean\": $r, \"ci_low\": $lo, \"ci_high\": $hi}, \"conclusion\": \"\"}")
	done
	local IFS=,
	local ab="{\"baseline\": \"as-given\", \"rounds\": 5, \"seed\": 1, \"variants\": [{\"name\": \"as-given\", \"wall_ratio\": null}${variants[*]:+,${variants[*]}}]}"
	check_eq "$name" "$expected" "$(jq --slurpfile ab <(echo "$ab") -f "$confirm_jq" <<<"$report" |
		jq -r .confirmation.class)"
}

class "defaults confirmed, a larger point with an interval across 1 set aside" window-bound \
	defaults:0.85:0.80:0.90 mimalloc:0.80:0.55:1.15
class "the remedy confirmed is the one that saved most of those confirmed" allocator-bound \
	defaults:0.70:0.50:1.05 mimalloc:0.85:0.80:0.90
class "a saving below 5% whose interval reaches 30%: unclear, not neither" unclear \
	defaults:0.96:0.70:1.25 jemalloc:1.02:0.90:1.10
class "every interval rules out 10%: neither" neither \
	defaults:0.99:0.97:1.01 jemalloc:1.00:0.96:1.03
class "a saving of 12% whose interval reaches 1: unclear" unclear defaults:0.88:0.75:1.02
class "nothing measured: neither" neither
# The threshold is the report's, not a copy of it.
report=${report/'"class_min": 0.1'/'"class_min": 0.2'}
class "class_min 0.2: a confirmed saving of 15% names no class" unclear defaults:0.85:0.75:0.90
class "class_min 0.2: intervals that rule out 20% but not 10% make neither" neither \
	defaults:0.90:0.85:0.95
finish
