# kill9.sh: kill -9 of a traced process leaves a trace whose complete blocks
# are all readable: the analyzer reads it (complete: false, a warning, exit
# 0) and `zstd -t` accepts the file without its torn tail. A process killed
# while idle, before its first block filled, is in the trace too, as cut.
#
# usage: bash kill9.sh PRELOAD REPORT CHURN_FOREVER WORKDIR
. "$(dirname "$0")/../lib.sh"

[ $# -eq 4 ] || fail "usage: kill9.sh PRELOAD REPORT CHURN_FOREVER WORKDIR"
preload=$1 report=$2 prog=$3 work=$4
fresh_dir "$work"

# An idle `git cat-file --batch`: it answers one request (so it has started
# and made its calls), then waits for the next one, and is killed there.
git init -q "$work/repo"
mkfifo "$work/requests" "$work/answers"
env GITTRACE_OUTPUT="$work/idle.zst" LD_PRELOAD="${LD_PRELOAD:+$LD_PRELOAD:}$preload" \
	git -C "$work/repo" cat-file --batch <"$work/requests" >"$work/answers" &
idle=$!
exec 9>"$work/requests" 8<"$work/answers"
echo no-such-object >&9
read -r answer <&8
check_eq "cat-file answered" "no-such-object missing" "$answer"
kill -9 "$idle"
wait "$idle" || true
exec 8<&- 9>&-
"$report" --json "$work/idle.zst" >"$work/idle.json" 2>"$work/idle.stderr" ||
	fail "the report of the idle process failed: $(cat "$work/idle.stderr")"
check_eq "idle process in the trace" "git -C $work/repo cat-file --batch" \
	"$(jq -r '.processes[0].argv | join(" ")' "$work/idle.json")"
check_eq "idle process complete" false "$(jq '.processes[0].complete' "$work/idle.json")"
check_eq "idle trace complete" false "$(jq .trace.complete "$work/idle.json")"
trace=$work/trace.zst

# Small blocks, written often, so that the victim has written whole blocks
# and is most likely writing another when it dies.
# env execs the victim, so $! is the victim's own pid.
env GITTRACE_OUTPUT="$trace" GITTRACE_BUFFER_SIZE=64k GITTRACE_FLUSH_INTERVAL_MS=10 \
	LD_PRELOAD="${LD_PRELOAD:+$LD_PRELOAD:}$preload" "$prog" "$work/ready" &
victim=$!
trap 'kill -9 $victim 2>/dev/null || true' EXIT
# Wait (bounded by the test's own timeout) until the victim has made its
# first calls and the tracer has written at least two blocks' worth.
while ! [ -e "$work/ready" ] || [ "$(stat -c %s "$trace" 2>/dev/null || echo 0)" -lt 20000 ]; do
	kill -0 "$victim" 2>/dev/null || fail "churn_forever died before it was killed"
	sleep 0.1
done
kill -9 "$victim"
set +e
wait "$victim"
status=$?
set -e
check_eq "victim killed by SIGKILL (status 128+9)" 137 "$status"

cut_trace_readable killed "$trace" "$work/report"
size=$(stat -c %s "$trace")
check_eq "image complete" false "$(jq '.processes[0].complete' "$work/report.json")"
[ "$(jq '.processes[0].calls.malloc' "$work/report.json")" -gt 0 ] || fail "no malloc calls read"
# A torn last block is warned about, once; a kill between blocks leaves
# none, and the image without an END is then simply incomplete.
warnings=$(grep -c '^gittrace-report: ' "$work/report.stderr" || true)
check_eq "warning lines" "$([ "$prefix" -lt "$size" ] && echo 1 || echo 0)" "$warnings"
check_eq "other stderr lines" "$warnings" "$(wc -l <"$work/report.stderr")"
finish
