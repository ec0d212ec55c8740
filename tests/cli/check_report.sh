#!/bin/sh
# One report case: gittrace-report reads TRACE (exit 0) and what it says
# agrees with the case's files, CASE being a path without extension:
#   CASE.jq         a jq program that must print true for `--json TRACE`
#   CASE.dump.jq    (optional) one that must print true for `--dump TRACE`,
#                   read as one raw string (jq -R -s)
#   CASE.text.jq    (optional) the same for the text report of TRACE
#   CASE.stderr     (optional) lines that must each appear in the stderr
#                   of `--json TRACE`
# Usage: check_report.sh REPORT TRACE CASE
report=$1 trace=$2 case=$3
out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT
fail() {
	echo "FAIL: $*"
	exit 1
}

"$report" --json "$trace" >"$out/json" 2>"$out/err" ||
	fail "--json exit status $?: $(cat "$out/err")"
jq -e -f "$case.jq" "$out/json" >/dev/null || fail "--json is not what $case.jq wants"
echo "ok: --json as $case.jq wants"
if [ -e "$case.dump.jq" ]; then
	"$report" --dump "$trace" >"$out/dump" || fail "--dump exit status $?"
	jq -R -s -e -f "$case.dump.jq" "$out/dump" >/dev/null ||
		fail "--dump is not what $case.dump.jq wants"
	echo "ok: --dump as $case.dump.jq wants"
fi
if [ -e "$case.text.jq" ]; then
	"$report" "$trace" >"$out/text" 2>/dev/null || fail "text report exit status $?"
	jq -R -s -e -f "$case.text.jq" "$out/text" >/dev/null ||
		fail "the text report is not what $case.text.jq wants"
	echo "ok: the text report as $case.text.jq wants"
fi
if [ -e "$case.stderr" ]; then
	while IFS= read -r line; do
		grep -qF -- "$line" "$out/err" || fail "stderr lacks '$line': $(cat "$out/err")"
		echo "ok: stderr has '$line'"
	done <"$case.stderr"
fi
exit 0
