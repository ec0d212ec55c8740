#!/bin/sh
# --processes=N: the text report lists and details the N heaviest processes
# and sums the rest on one line, with the calls the JSON gives those rest;
# the HTML page lists the sites of those N only.
# Usage: processes.sh REPORT TRACE WORKDIR (a trace of three processes)
report=$1 trace=$2 work=$3
fail() { echo "processes: $*"; exit 1; }

json=$("$report" --json "$trace") || fail "--json failed"
# The JSON lists processes heaviest first, as the text report does.
rest=$(printf '%s' "$json" | jq '[.processes[1:][].events] | add') || fail "jq failed"
[ "$(printf '%s' "$json" | jq '.processes | length')" -eq 3 ] || fail "want a trace of 3 processes"

text=$("$report" --processes=1 "$trace") || fail "--processes=1 failed"
sections=$(printf '%s\n' "$text" | grep -c '^== pid ')
[ "$sections" -eq 1 ] || fail "--processes=1: $sections sections, want 1"
rows=$(printf '%s\n' "$text" | sed -n '/^Processes (heaviest first)/,/^$/p' | grep -c '^  *[0-9]')
[ "$rows" -eq 1 ] || fail "--processes=1: $rows table rows, want 1"
printf '%s\n' "$text" | grep -q "^  … 2 more processes: $rest calls, " ||
	fail "--processes=1: no line for the 2 others with their $rest calls"

text=$("$report" --processes=0 "$trace") || fail "--processes=0 failed"
printf '%s\n' "$text" | grep -q 'more process' && fail "--processes=0 left processes out"
rows=$(printf '%s\n' "$text" | sed -n '/^Processes (heaviest first)/,/^$/p' | grep -c '^  *[0-9]')
[ "$rows" -eq 3 ] || fail "--processes=0: $rows table rows, want 3"

# The HTML sites table: rows name their process's pid in the first cell.
page=$work/processes.html
"$report" --processes=1 --html "$page" "$trace" || fail "--html --processes=1 failed"
grep -q 'The sites of the 1 heaviest processes; the other 2 ' "$page" ||
	fail "--html --processes=1: no note of the 2 processes left out"
first=$(printf '%s' "$json" | jq '.processes[0].pid')
pids=$(sed -n '/<table id="gt-sites"/,/<\/table>/p' "$page" | grep -o '<tr><td data-v="[0-9]*' |
	grep -o '[0-9]*$' | sort -u)
[ -n "$pids" ] || fail "--html: no site rows"
[ "$pids" = "$first" ] || fail "--html --processes=1: sites of pids $pids, want $first only"
"$report" --processes=0 --html "$page" "$trace" || fail "--html --processes=0 failed"
grep -q 'heaviest processes; the other' "$page" && fail "--html --processes=0 left processes out"
rm -f "$page"
exit 0
