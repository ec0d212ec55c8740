# checks.sh: no silent loss (sourced, not run). check_trace compares a
# trace with an account of the same run that does not come from gittrace:
# git's trace2 event files say which processes ran, and an independent
# replay of `gittrace-report --dump` (trace_audit.awk) says what the trace
# holds; the --json report must agree with both.
#
# Needs: report (gittrace-report), and fail/check_eq/same_files (lib.sh).
here=$(dirname "${BASH_SOURCE[0]}")

# check_trace NAME TRACE TRACE2_DIR complete|SIGNAL: the report's process
# images are exactly those trace2 saw (each git process, and the fork
# before each exec); no image lost or dropped calls; the per-image call and
# heap figures of the report equal the replay's. Every image and the trace
# must be complete; with SIGNAL (SIGTERM, ...), a signal the tracer catches
# (preload/hooks_signal.c) killed the run's processes, and the report must
# say so of each that it killed, and of no other.
check_trace() {
	local name=$1 trace=$2 t2=$3 expect=$4 w=$work/$1
	read_trace "$name" "$trace"

	jq -n -r -f "$here/trace2_images.jq" "$t2"/* | sort >"$w.images.expected"
	jq -r -f "$here/report_images.jq" "$w.json" | sort >"$w.images.reported"
	[ -s "$w.images.expected" ] || fail "$name: trace2 saw no process"
	same_files "$name: process images (trace2 vs report)" "$w.images.expected" \
		"$w.images.reported"

	# An exit status the tracer saw (exit, _exit; unknown, null or -1, for
	# a return from main) is the one trace2 reported.
	jq -r '.processes[] | select(.origin != "fork" and .exit_status != null
			and .exit_status != -1)
		| "\(.pid) \(.exit_status)"' "$w.json" | sort >"$w.status.reported"
	# trace2: each git process's exit event, and its parent's child_exit
	# (which also covers the programs that are not git, such as sh).
	{
		jq -r 'select(.event == "exit") | "\(.sid | split("-P") | last) \(.code)"' \
			"$t2"/* | while read -r hex code; do echo "$((16#$hex)) $code"; done
		jq -r 'select(.event == "child_exit") | "\(.pid) \(.code)"' "$t2"/*
	} | sort -u >"$w.status.trace2"
	comm -23 "$w.status.reported" "$w.status.trace2" >"$w.status.wrong"
	[ ! -s "$w.status.wrong" ] ||
		fail "$name: exit statuses trace2 does not know: $(cat "$w.status.wrong")"
	echo "ok: $name: $(wc -l <"$w.status.reported") exit statuses agree with trace2"

	check_complete "$name" "$w.json"
	check_eq "$name: report warnings" "" "$(cat "$w.report.stderr")"
	[ "$expect" = complete ] || check_eq "$name: killed by" "$expect" \
		"$(jq -r '[.processes[].killed_by // empty] | unique | join(" ")' "$w.json")"

	audit_trace "$name"
}

# read_trace NAME TRACE: the report of TRACE as $work/NAME.json (and the
# analyzer's warnings in NAME.report.stderr) and the audit of its records
# (trace_audit.awk) as NAME.audit. The records go straight from --dump to
# the audit: written out, the stress runs' dumps take gigabytes.
read_trace() {
	local name=$1 trace=$2 w=$work/$1
	[ -s "$trace" ] || fail "$name: no trace written"
	"$report" --json --top 1 "$trace" >"$w.json" 2>"$w.report.stderr" ||
		fail "$name: gittrace-report --json failed: $(cat "$w.report.stderr")"
	"$report" --dump "$trace" 2>/dev/null | awk -f "$here/trace_audit.awk" >"$w.audit" ||
		fail "$name: gittrace-report --dump | trace_audit.awk failed"
}

# audit_trace NAME: after read_trace, no image lost or dropped calls, the
# report's per-image figures equal an independent replay of the records,
# and no exec'd image freed memory it never allocated.
audit_trace() {
	local name=$1 w=$work/$1
	# Calls lost between the tracer and the file, or dropped by the tracer.
	if grep '^LOST ' "$w.audit" >&2; then
		fail "$name: records lost (above)"
	fi
	echo "ok: $name: no image lost or dropped calls"
	# Every image's figures, from the replay and from the report.
	awk '$1 == "IMAGE" { print $2, $5, $6, $8, $9 }' "$w.audit" | sort >"$w.heap.replayed"
	jq -r '.processes[] | "\(.image_id) \(.events) \(.heap.allocations) '`
		`'\(.heap.untracked_frees) \(.heap.leaked_allocations)"' "$w.json" |
		sort >"$w.heap.reported"
	same_files "$name: calls, allocations, untracked frees, leaks per image" \
		"$w.heap.replayed" "$w.heap.reported"
	# A fork inherits its parent's heap, so it frees what it never
	# allocated. An exec'd image starts with an empty heap: a free of
	# memory it never allocated means a lost allocation record. One
	# exception, made by the tracer itself: the root puts GITTRACE_SESSION
	# in its environment (setenv, inside the tracer, so unrecorded); when
	# git later calls setenv, glibc's __add_to_environ reallocs that array.
	awk '$1 == "UNTRACKED" && $4 != "fork" &&
		!($4 == "root" && $6 ~ /^__add_to_environ;/)' "$w.audit" >"$w.untracked"
	if [ -s "$w.untracked" ]; then
		head -5 "$w.untracked" >&2
		fail "$name: exec'd images freed memory they never allocated (above)"
	fi
	echo "ok: $name: no unexplained untracked free in an exec'd image"
}
